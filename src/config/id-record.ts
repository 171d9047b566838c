/**
 * The ids a crawl has yielded, kept on disk rather than in memory: a read of a million items
 * appends a million lines to a private temporary file and holds none of them, and the few ids
 * a later pass needs to look up are found with one sequential read of it.
 */
import { closeSync, mkdtempSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import whenExit from './exit-hooks.js';

/** Bytes gathered before they go to the file, and read from it at a time. */
const CHUNK = 1 << 16;

/** An append-only record of ids in a temporary file, removed by `remove` or at exit. */
export class IdRecord {
  private fd?: number;
  private dir?: string;
  private pending = '';
  private unhook?: () => void;
  /** Ids recorded. */
  size = 0;

  /** Records one id (it must not hold a line break). */
  add(id: string): void {
    this.pending += `${id}\n`;
    this.size++;
    if (this.pending.length >= CHUNK) this.flush();
  }

  /** Which of `ids` were recorded: one read of the file, whatever its length. */
  find(ids: ReadonlySet<string>): Set<string> {
    const found = new Set<string>();
    if (ids.size === 0 || this.size === 0) return found;
    this.flush();
    if (this.fd === undefined) return found;
    const buffer = Buffer.alloc(CHUNK);
    let position = 0;
    let carried = '';
    for (;;) {
      const count = readSync(this.fd, buffer, 0, CHUNK, position);
      if (count === 0) break;
      position += count;
      const lines = (carried + buffer.toString('utf8', 0, count)).split('\n');
      carried = lines.pop() ?? '';
      for (const line of lines) if (ids.has(line)) found.add(line);
    }
    return found;
  }

  /** Removes the file. */
  remove(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    if (this.dir) rmSync(this.dir, { recursive: true, force: true });
    this.unhook?.();
    this.fd = undefined;
    this.dir = undefined;
    this.pending = '';
    this.size = 0;
  }

  private flush(): void {
    if (this.pending === '') return;
    if (this.fd === undefined) {
      const dir = mkdtempSync(join(tmpdir(), 'svc-seen-'));
      this.dir = dir;
      this.unhook = whenExit(() => rmSync(dir, { recursive: true, force: true }));
      this.fd = openSync(join(dir, 'ids'), 'w+', 0o600);
    }
    const bytes = Buffer.from(this.pending, 'utf8');
    this.pending = '';
    for (let written = 0; written < bytes.length; )
      written += writeSync(this.fd, bytes, written, bytes.length - written);
  }
}
