/**
 * Making a directory either succeeds or exits 2 at once, naming the directory and why: nothing
 * spins (docs/guide.md, Exit codes). Run as a process under `timeout -s TERM 5`, as a CI job's
 * step would be: a loop deaf to SIGTERM would be killed by the test's own deadline instead.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeDirectory } from '../../src/config/directory.js';
import { emulatorPerTest } from '../helpers/emulator.js';
import { SVC_BIN } from '../helpers/svc.js';
import { tempDir } from '../helpers/temp-dir.js';

const start = emulatorPerTest();
const scratch = () => tempDir('svc-dirs-');

/** `sh -c script` with svc's environment; how it ended and its stderr, and the seconds it took. */
function shell(script: string, env: Record<string, string>) {
  const began = Date.now();
  return new Promise<{ code: number | null; stderr: string; seconds: number }>((resolve) => {
    execFile(
      'sh',
      ['-c', script],
      {
        env: { PATH: process.env.PATH ?? '', NO_COLOR: '1', ...env },
        timeout: 20_000,
        killSignal: 'SIGKILL',
      },
      (error, _stdout, stderr) => {
        const code = error ? ((error as { code?: number }).code ?? null) : 0;
        resolve({
          code: typeof code === 'number' ? code : null,
          stderr,
          seconds: (Date.now() - began) / 1000,
        });
      },
    );
  });
}

const svc = `timeout -s TERM 5 "${process.execPath}" "${SVC_BIN}"`;

describe('a directory svc cannot make', () => {
  it('a relative SVC_CONFIG_DIR in a deleted working directory: exit 2 at once, naming it', async () => {
    const emu = await start();
    const gone = mkdtempSync(join(tmpdir(), 'svc-gone-'));
    const result = await shell(`cd "${gone}" && rmdir "${gone}" && exec ${svc} orders list --json`, {
      SVC_BASE_URL: emu.url,
      SVC_API_KEY: emu.keys.live,
      SVC_CONFIG_DIR: 'svc-config',
    });
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain('svc-config');
    expect(result.stderr).toContain('working directory no longer exists');
    expect(result.seconds).toBeLessThan(5);
  });

  it('SVC_CONFIG_DIR=/proc/1: exit 2 at once, naming the pacing directory', async () => {
    const emu = await start();
    const result = await shell(`exec ${svc} orders list --json`, {
      SVC_BASE_URL: emu.url,
      SVC_API_KEY: emu.keys.live,
      SVC_CONFIG_DIR: '/proc/1',
    });
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain('cannot create the directory /proc/1/pacing');
    expect(result.seconds).toBeLessThan(5);
  });

  it('makes missing parents, and refuses a file in the way by name', () => {
    const dir = scratch();
    makeDirectory(join(dir, 'a', 'b', 'c'));
    makeDirectory(join(dir, 'a', 'b', 'c'));
    expect(() => makeDirectory(join(dir, 'a', 'b', 'c', 'd'))).not.toThrow();
    writeFileSync(join(dir, 'file'), '');
    expect(() => makeDirectory(join(dir, 'file', 'sub'))).toThrow(/file\/sub: a file is in the way/);
    expect(() => makeDirectory('/proc/1/x/y')).toThrow(/cannot create the directory \/proc\/1\/x\/y/);
  });
});
