import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  FileStore,
  LOCK_LEASE_MS,
  openSharedStore,
  sharedBucketId,
  sharedPacingDir,
} from '../../../../src/client/pacing/record-file.js';
import { processesSharing } from '../../../../src/client/pacing/sharing.js';
import { processAlive } from '../../../../src/process-alive.js';
import { tempDir } from '../../../helpers/temp-dir.js';

const KEY = 'svc_live_abcdefghijklmnopqrstuvwx';
const BASE = 'http://127.0.0.1:4010';

function freshDir(): string {
  return join(tempDir('svc-pacing-'), 'pacing');
}

/** A pid that no process has: a child that already exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '0']);
  await new Promise((resolve) => child.on('exit', resolve));
  expect(processAlive(child.pid as number)).toBe(false);
  return child.pid as number;
}

describe('the shared pacing file', () => {
  it('names the bucket by a hash of key and base URL, the same for equivalent URLs', () => {
    const id = sharedBucketId(KEY, BASE);
    expect(id).toMatch(/^[0-9a-f]{32}$/);
    expect(sharedBucketId(KEY, `${BASE}/`)).toBe(id);
    expect(sharedBucketId(KEY, `${BASE}/rest/v1`)).toBe(id);
    expect(sharedBucketId(KEY, 'http://127.0.0.1:4011')).not.toBe(id);
    expect(sharedBucketId('svc_live_other', BASE)).not.toBe(id);
  });

  it('is written 0600 in a 0700 folder, and holds no key', async () => {
    const dir = freshDir();
    const store = openSharedStore(dir, KEY, BASE);
    await store.transact((record) => {
      record.grants = 7;
    });
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(readdirSync(dir)).toEqual([`${sharedBucketId(KEY, BASE)}.json`]);
    expect(statSync(store.where).mode & 0o777).toBe(0o600);
    const text = readFileSync(store.where, 'utf8');
    expect(text).not.toContain(KEY);
    expect(text).not.toContain('abcdefghijklmnopqrstuvwx');
    expect((await store.peek())?.grants).toBe(7);
  });

  it('replaces a corrupt or foreign record instead of failing', async () => {
    for (const junk of [
      '',
      '{"version":1,"bucketId"',
      'null',
      '[]',
      '{"version":99}',
      '\u0000\u0001garbage',
    ]) {
      const store = openSharedStore(freshDir(), KEY, BASE);
      await store.transact(() => undefined);
      writeFileSync(store.where, junk);
      // A look without the lock cannot tell junk from a write half done: it reports nothing.
      expect(await store.peek()).toBeUndefined();
      await store.transact((record) => {
        record.grants += 1;
      });
      expect(JSON.parse(readFileSync(store.where, 'utf8')).grants).toBe(1);
    }
  });

  it('serializes transactions through the lock file: none is lost', async () => {
    const store = openSharedStore(freshDir(), KEY, BASE);
    await Promise.all(
      Array.from({ length: 40 }, () =>
        store.transact((record) => {
          record.grants += 1;
        }),
      ),
    );
    expect((await store.peek())?.grants).toBe(40);
  });

  it('breaks at once a lock whose holder was killed', async () => {
    const dir = freshDir();
    const store = new FileStore(dir, sharedBucketId(KEY, BASE));
    await store.transact(() => undefined);
    writeFileSync(join(dir, `${sharedBucketId(KEY, BASE)}.lock`), `${await deadPid()} ${Date.now()} abc`);
    const started = Date.now();
    await store.transact((record) => {
      record.grants = 1;
    });
    expect(Date.now() - started).toBeLessThan(LOCK_LEASE_MS);
    expect((await store.peek())?.grants).toBe(1);
  });

  it('waits for a live holder, and breaks its lock once held past the lease', async () => {
    const dir = freshDir();
    const id = sharedBucketId(KEY, BASE);
    const store = new FileStore(dir, id);
    await store.transact(() => undefined);
    const lock = join(dir, `${id}.lock`);
    // A stopped process keeps the lock: its pid lives on.
    const holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)']);
    try {
      writeFileSync(lock, `${holder.pid} ${Date.now()} abc`);
      const started = Date.now();
      await store.transact(() => undefined);
      const waited = Date.now() - started;
      expect(waited).toBeGreaterThanOrEqual(LOCK_LEASE_MS - 50);
      // Broken once the lease passed, not held while the holder lives (a busy machine adds to the lease).
      expect(waited).toBeLessThan(LOCK_LEASE_MS + 10_000);
    } finally {
      holder.kill('SIGKILL');
    }
  });

  it('lists the live processes that share a key, for svc doctor', async () => {
    const configDir = tempDir('svc-config-');
    const store = openSharedStore(sharedPacingDir(configDir), KEY, BASE);
    const dead = await deadPid();
    await store.transact((record) => {
      const entry = { startedAt: 1, seenAt: Date.now(), inFlight: 2, queued: 3, grants: 9 };
      record.processes[String(process.pid)] = entry;
      record.processes[String(dead)] = entry;
    });
    expect(await processesSharing(store)).toEqual([
      expect.objectContaining({ pid: String(process.pid), self: true, inFlight: 2, queued: 3 }),
    ]);
    const another = openSharedStore(sharedPacingDir(configDir), 'svc_live_another', BASE);
    expect(await processesSharing(another)).toEqual([]);
  });
});
