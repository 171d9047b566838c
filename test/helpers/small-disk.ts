/**
 * Files that refuse writes, as a full disk or a reader gone does: a small tmpfs (where this
 * process may mount one, i.e. as root in a sandbox), else a FIFO whose reader takes the first
 * bytes and goes away.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { createReadStream, mkdtempSync, rmdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Whether this process may mount a tmpfs (tried once). */
let mountable: boolean | undefined;

/**
 * A tmpfs of `sizeKb` with `freeKb` left free (the rest taken by a filler file), or undefined
 * where mounting is not allowed. `unmount` removes it.
 */
export function smallDisk(sizeKb: number, freeKb: number): { dir: string; unmount: () => void } | undefined {
  if (mountable === false) return undefined;
  const dir = mkdtempSync(join(tmpdir(), 'svc-small-disk-'));
  const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeKb}k`, 'tmpfs', dir], {
    stdio: 'ignore',
  });
  mountable = mounted.status === 0;
  if (!mountable) {
    rmdirSync(dir);
    return undefined;
  }
  writeFileSync(join(dir, 'filler'), Buffer.alloc((sizeKb - freeKb) * 1024));
  return {
    dir,
    unmount: () => {
      execFileSync('umount', [dir]);
      rmdirSync(dir);
    },
  };
}

/**
 * A FIFO at `path` whose reader takes the first `bytes` bytes (at least one read) and then goes
 * away, so that later writes fail (EPIPE); resolves with what it read once it left.
 */
export function fifoThatStopsReading(path: string, bytes: number): Promise<Buffer> {
  execFileSync('mkfifo', [path]);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let read = 0;
    const reader = createReadStream(path, { highWaterMark: bytes });
    reader.on('data', (chunk) => {
      const buffer = chunk as Buffer;
      chunks.push(buffer);
      read += buffer.length;
      if (read >= bytes) reader.destroy();
    });
    reader.on('error', reject);
    reader.on('close', () => resolve(Buffer.concat(chunks)));
  });
}
