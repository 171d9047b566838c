/** The lock that keeps a second push of the same file and store away while one runs. */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LockHeld, takeLock } from '../../../src/config/journal-lock.js';
import { tempDir } from '../../helpers/temp-dir.js';

const NOW = new Date('2026-11-02T12:00:00Z');
const children: ChildProcess[] = [];

afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
});

function lockPath(): string {
  return join(tempDir('svc-journal-lock-'), 'journals', 'push.json.lock');
}

/** A live process on this host that is not this one. */
function liveProcess(): number {
  const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)']);
  children.push(child);
  return child.pid as number;
}

/** A pid no process has: a child that already exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '0']);
  await new Promise((resolve) => child.on('exit', resolve));
  return child.pid as number;
}

function holderText(pid: number): string {
  return JSON.stringify({ pid, host: hostname(), since: '2026-11-02T11:00:00.000Z' });
}

describe('the push lock', () => {
  it('is taken, names this process, and is gone once released', async () => {
    const file = lockPath();
    const held = await Promise.resolve().then(() => takeLock(file, NOW));
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ pid: process.pid, host: hostname() });
    held.release();
    expect(existsSync(file)).toBe(false);
  });

  it('refuses while a live process holds it, naming that process', async () => {
    const file = lockPath();
    await Promise.resolve().then(() => takeLock(file, NOW));
    const pid = liveProcess();
    writeFileSync(file, holderText(pid));
    const taking = Promise.resolve().then(() => takeLock(file, NOW));
    await expect(taking).rejects.toBeInstanceOf(LockHeld);
    await expect(taking).rejects.toMatchObject({ holder: { pid }, lockFile: file });
  });

  it("takes over a dead holder's lock", async () => {
    const file = lockPath();
    await Promise.resolve().then(() => takeLock(file, NOW));
    writeFileSync(file, holderText(await deadPid()));
    await Promise.resolve().then(() => takeLock(file, NOW));
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ pid: process.pid });
  });

  it('leaves alone a lock still being written (empty an instant): its holder, once written, holds it', async () => {
    const file = lockPath();
    await Promise.resolve().then(() => takeLock(file, NOW));
    // Another process has made the lock file and not yet written itself into it.
    writeFileSync(file, '');
    const pid = liveProcess();
    setTimeout(() => writeFileSync(file, holderText(pid)), 50);
    const taking = Promise.resolve().then(() => takeLock(file, NOW));
    await expect(taking).rejects.toMatchObject({ holder: { pid } });
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ pid });
  });
});
