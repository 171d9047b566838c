import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { sharedBucketId } from '../../src/client/pacing/record-file.js';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { emulatorPerTest } from '../helpers/emulator.js';
import { mismatches, quantityFile } from '../helpers/stock-rows.js';
import { freshConfigDir, runSvc, SVC_BIN } from '../helpers/svc.js';

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

/** An emulator whose bucket (10, draining 20/s) two pushes of 20 requests cannot share blindly. */
const startEmulator = emulatorPerTest({ products: 40, bucket: 10, drainPerSecond: 20, channelDelayMs: 0 });
const start = (products?: number) => startEmulator(products ? { products } : {});

function stockFile(emu: RunningEmulator, offset: number, count: number) {
  return quantityFile(emu, offset, count, 1000);
}

function envOf(emu: RunningEmulator, configDir: string, extra: Record<string, string> = {}) {
  return { SVC_BASE_URL: emu.url, SVC_API_KEY: emu.keys.live, SVC_CONFIG_DIR: configDir, ...extra };
}

/** The shared pacing file of the live key in `configDir`. */
function statePath(emu: RunningEmulator, configDir: string): string {
  return join(configDir, 'pacing', `${sharedBucketId(emu.keys.live, emu.url)}.json`);
}

/** `svc inventory push FILE --batch-size 1` left running in the background. */
function pushInBackground(emu: RunningEmulator, configDir: string, path: string): ChildProcess {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (value !== undefined && !name.startsWith('SVC_') && name !== 'CI') env[name] = value;
  }
  const child = spawn(process.execPath, [SVC_BIN, 'inventory', 'push', path, '--batch-size', '1', '--json'], {
    env: { ...env, NO_COLOR: '1', ...envOf(emu, configDir) },
    stdio: 'ignore',
  });
  children.push(child);
  return child;
}

/** Resolves once the emulator has handled `count` inventory batches (or fails after 20 s). */
async function batchesHandled(emu: RunningEmulator, count: number): Promise<void> {
  const giveUpAt = Date.now() + 20_000;
  while (emu.requests({ method: 'POST', path: '/inventory/batch' }).length < count) {
    if (Date.now() > giveUpAt) throw new Error(`the emulator saw fewer than ${count} batches in 20 s`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function exited(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
}

describe('pacing shared by svc processes on one key', () => {
  it('two concurrent pushes on one key: both files land and the service answers no 429', async () => {
    const emu = await start();
    const configDir = freshConfigDir();
    const files = [stockFile(emu, 0, 20), stockFile(emu, 20, 20)];
    const results = await Promise.all(
      files.map((file) =>
        // Separate processes: what shares pacing is a state file between pids.
        runSvc(['inventory', 'push', file.path, '--batch-size', '1', '--json'], {
          env: envOf(emu, configDir),
          process: true,
        }),
      ),
    );
    for (const result of results) expect(result.code, result.stderr).toBe(0);
    for (const file of files) expect(mismatches(emu, file.rows)).toEqual([]);
    const batches = emu.requests({ method: 'POST', path: '/inventory/batch' });
    // A 41st batch was seen once in a full CI run (no 429, every row landed): say which one if it comes back.
    const seen = batches.map(
      (r) => `${r.seq}@${r.atMs}:${r.status}:${r.idempotencyKey}${r.replayed ? ':replay' : ''}`,
    );
    expect(batches.length, `${seen.join(' ')}\n${results.map((r) => r.stderr).join('\n')}`).toBe(40);
    expect(emu.requests({ status: 429 })).toEqual([]);
  });

  it('a push killed with kill -9 mid-run does not hold up the next one', async () => {
    const emu = await start();
    const configDir = freshConfigDir();
    const first = pushInBackground(emu, configDir, stockFile(emu, 0, 60).path);
    await batchesHandled(emu, 15);
    first.kill('SIGKILL');
    await exited(first);
    const record = JSON.parse(readFileSync(statePath(emu, configDir), 'utf8'));
    // It died registered, with requests out or waiting: the next process must see through that.
    expect(Object.keys(record.processes)).toContain(String(first.pid));
    const second = stockFile(emu, 60, 20);
    const started = Date.now();
    const result = await runSvc(['inventory', 'push', second.path, '--batch-size', '1', '--debug'], {
      env: envOf(emu, configDir),
    });
    expect(result.code, result.stderr).toBe(0);
    expect(mismatches(emu, second.rows)).toEqual([]);
    expect(result.stderr).not.toContain('pacing no longer shared');
    // Generous: 20 requests need about 0.5 s once the bucket has drained; a stuck lock or a
    // ghost holding the bucket would cost far more.
    expect(Date.now() - started).toBeLessThan(15_000);
    const after = JSON.parse(readFileSync(statePath(emu, configDir), 'utf8'));
    expect(Object.keys(after.processes)).not.toContain(String(first.pid));
  });

  it('a push killed with kill -9 before it learned the drain holds the next pushes on the key back for a moment, not for the drain of the tier', async () => {
    // Bucket 2 draining 20/s: the tier's drain, B/20, is 0.1/s, what a model that has learned
    // nothing better must assume: 10 s for each request it cannot account for.
    const emu = await startEmulator({ products: 40, bucket: 2, drainPerSecond: 20 });
    const configDir = freshConfigDir();
    const batch = { method: 'POST', path: '/inventory/batch' };
    // Its first request is answered (the bucket is learned); its second is held at the
    // service's door until it is dead, so that it dies with a request out.
    let letIn = () => {};
    const held = new Promise<void>((resolve) => {
      letIn = resolve;
    });
    emu.faults.inject({ ...batch, kind: 'delay', delayMs: 0 });
    emu.faults.inject({ ...batch, kind: 'delay', delayMs: 30_000, until: held });
    const victim = pushInBackground(emu, configDir, stockFile(emu, 0, 40).path);
    await batchesHandled(emu, 2);
    victim.kill('SIGKILL');
    await exited(victim);
    const record = JSON.parse(readFileSync(statePath(emu, configDir), 'utf8'));
    expect(record.processes[String(victim.pid)]?.inFlight).toBe(1);
    // Its request reaches the bucket after all, as requests of a dead process often do.
    letIn();
    const deadRequest = () => emu.requests(batch)[1];
    while (deadRequest().status === null) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(deadRequest().status).toBe(200);
    const files = [stockFile(emu, 0, 10), stockFile(emu, 10, 10)];
    const started = Date.now();
    const results = await Promise.all(
      files.map((file) =>
        runSvc(['inventory', 'push', file.path, '--batch-size', '1', '--debug'], {
          env: envOf(emu, configDir),
          process: true,
        }),
      ),
    );
    for (const result of results) expect(result.code, result.stderr).toBe(0);
    for (const file of files) expect(mismatches(emu, file.rows)).toEqual([]);
    expect(emu.requests({ status: 429 })).toEqual([]);
    // One request learns the level at once; waiting out the dead request at 0.1/s took 10 s.
    const firstBatch = emu.requests(batch)[2];
    expect(firstBatch.atMs - started).toBeLessThan(5_000);
    expect(
      results.some((r) => r.stderr.includes(`svc process ${victim.pid} is gone with 1 request out`)),
    ).toBe(true);
  }, 30_000);

  it('a lock left by a process killed while holding it is broken at once', async () => {
    const emu = await start();
    const configDir = freshConfigDir();
    const dir = join(configDir, 'pacing');
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const lock = join(dir, `${sharedBucketId(emu.keys.live, emu.url)}.lock`);
    // Takes the lock as svc does (O_CREAT|O_EXCL, then "pid time nonce"), then waits to be killed.
    const holder = spawn(
      process.execPath,
      [
        '-e',
        `const fs = require('node:fs'); const fd = fs.openSync(process.argv[1], 'wx', 0o600);
         fs.writeSync(fd, process.pid + ' ' + Date.now() + ' held'); fs.closeSync(fd);
         process.stdout.write('locked'); setTimeout(() => {}, 60000);`,
        lock,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    children.push(holder);
    await new Promise((resolve) => {
      holder.stdout?.once('data', resolve);
      holder.once('exit', resolve);
    });
    holder.kill('SIGKILL');
    await exited(holder);
    expect(existsSync(lock)).toBe(true);
    const file = stockFile(emu, 0, 20);
    const result = await runSvc(['inventory', 'push', file.path, '--batch-size', '1', '--debug'], {
      env: envOf(emu, configDir),
    });
    expect(result.code, result.stderr).toBe(0);
    expect(mismatches(emu, file.rows)).toEqual([]);
    // It took the lock (the state file is its own), rather than giving up on sharing.
    expect(result.stderr).not.toContain('pacing no longer shared');
    expect(JSON.parse(readFileSync(statePath(emu, configDir), 'utf8')).grants).toBe(20);
    expect(existsSync(lock)).toBe(false);
  });

  it('a lock that cannot be read (a directory in its place) neither spins nor blocks the run', async () => {
    const emu = await start();
    const configDir = freshConfigDir();
    const dir = join(configDir, 'pacing');
    mkdirSync(join(dir, `${sharedBucketId(emu.keys.live, emu.url)}.lock`), { recursive: true });
    const file = stockFile(emu, 0, 5);
    const result = await runSvc(['inventory', 'push', file.path, '--batch-size', '1'], {
      env: envOf(emu, configDir),
      timeoutMs: 20_000,
    });
    expect(result.code, result.stderr).toBe(0);
    expect(mismatches(emu, file.rows)).toEqual([]);
  });

  it('replaces a corrupt state file, keeps it 0600 and never writes the key', async () => {
    const emu = await start();
    const configDir = freshConfigDir();
    mkdirSync(join(configDir, 'pacing'), { recursive: true });
    writeFileSync(statePath(emu, configDir), '{"version":1,"bucketId":"trunc');
    const file = stockFile(emu, 0, 12);
    const result = await runSvc(['inventory', 'push', file.path, '--batch-size', '1'], {
      env: envOf(emu, configDir),
    });
    expect(result.code, result.stderr).toBe(0);
    const text = readFileSync(statePath(emu, configDir), 'utf8');
    expect(JSON.parse(text)).toMatchObject({ version: 1, grants: 12 });
    expect(statSync(statePath(emu, configDir)).mode & 0o777).toBe(0o600);
    for (const name of readdirSync(join(configDir, 'pacing'))) {
      expect(readFileSync(join(configDir, 'pacing', name), 'utf8')).not.toContain(emu.keys.live);
    }
  });

  it('SVC_SHARED_PACING=0 keeps each process to itself; a value it cannot read is a usage error', async () => {
    const emu = await start();
    const configDir = freshConfigDir();
    const file = stockFile(emu, 0, 3);
    const off = await runSvc(['inventory', 'push', file.path], {
      env: envOf(emu, configDir, { SVC_SHARED_PACING: '0' }),
    });
    expect(off.code, off.stderr).toBe(0);
    // No pacing record; the count of the write quota spent is kept all the same, in the user's state dir.
    expect(existsSync(statePath(emu, configDir))).toBe(false);
    expect(existsSync(join(configDir, 'pacing'))).toBe(false);
    expect(readdirSync(join(configDir, 'state', 'svc', 'quota'))).toEqual([
      expect.stringMatching(/\.quota\.json$/),
    ]);
    const bad = await runSvc(['inventory', 'push', file.path], {
      env: envOf(emu, configDir, { SVC_SHARED_PACING: 'sometimes' }),
    });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('SVC_SHARED_PACING must be 0 (off) or 1 (on), got "sometimes"');
  });

  it('--debug says which waits other processes on the key caused', async () => {
    const emu = await start(80);
    const configDir = freshConfigDir();
    const busy = pushInBackground(emu, configDir, stockFile(emu, 0, 200).path);
    // The busy push holds the bucket full, with requests waiting, when the second one starts.
    await batchesHandled(emu, 20);
    const file = stockFile(emu, 200, 5);
    const result = await runSvc(['inventory', 'push', file.path, '--batch-size', '1', '--debug'], {
      env: envOf(emu, configDir),
    });
    busy.kill('SIGTERM');
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/pacing shared with 1 other svc process on this key \(pid \d+\)/);
    expect(result.stderr).toMatch(
      /⧗ waited \d+ ms for this key's rate limit: \d+ requests? of another svc process went first/,
    );
    expect(emu.requests({ status: 429 })).toEqual([]);
  });

  it('--debug blames no other process for the requests sent before this one started', async () => {
    const emu = await start();
    const configDir = freshConfigDir();
    const first = await runSvc(['inventory', 'push', stockFile(emu, 0, 20).path, '--batch-size', '1'], {
      env: envOf(emu, configDir),
    });
    expect(first.code, first.stderr).toBe(0);
    // Alone on the key, it waits for the bucket the first push filled: nobody went ahead of it.
    const second = await runSvc(
      ['inventory', 'push', stockFile(emu, 20, 20).path, '--batch-size', '1', '--debug'],
      { env: envOf(emu, configDir) },
    );
    expect(second.code, second.stderr).toBe(0);
    expect(second.stderr).not.toMatch(/pacing shared with/);
    expect(second.stderr).not.toMatch(/of another svc process went first/);
  });

  it('a process stopped (Ctrl-Z) with requests out holds up the others on the key for seconds, not minutes', async () => {
    const emu = await start(100);
    const configDir = freshConfigDir();
    // A first push teaches the shared record the drain; the bucket empties again after it.
    const warmup = await runSvc(['inventory', 'push', stockFile(emu, 0, 20).path, '--batch-size', '1'], {
      env: envOf(emu, configDir),
    });
    expect(warmup.code, warmup.stderr).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    // The next push sends a burst into the empty bucket; its answers come late, and it is
    // stopped before it reads them: the record says it has requests out, for good.
    const batch = { method: 'POST', path: '/inventory/batch' };
    const before = emu.requests(batch).length;
    emu.faults.inject({ ...batch, kind: 'delay', delayMs: 2000, times: 8 });
    const stopped = pushInBackground(emu, configDir, stockFile(emu, 20, 40).path);
    await batchesHandled(emu, before + 8);
    stopped.kill('SIGSTOP');
    try {
      const file = stockFile(emu, 60, 20);
      const result = await runSvc(['inventory', 'push', file.path, '--batch-size', '1'], {
        env: envOf(emu, configDir),
        timeoutMs: 40_000,
      });
      expect(result.code, result.stderr).toBe(0);
      expect(mismatches(emu, file.rows)).toEqual([]);
    } finally {
      stopped.kill('SIGCONT');
    }
  }, 60_000);

  it('svc doctor lists the other svc processes sharing the key, and says when sharing is off', async () => {
    // A slow bucket keeps the push running (10 s) while the doctor looks; its own requests take
    // their turns in the shared bucket beside the push's.
    const emu = await startEmulator({ products: 40, bucket: 2, drainPerSecond: 4 });
    const configDir = freshConfigDir();
    const push = pushInBackground(emu, configDir, stockFile(emu, 0, 40).path);
    await batchesHandled(emu, 2);
    const doctor = await runSvc(['doctor', '--json'], { env: envOf(emu, configDir) });
    const checks = JSON.parse(doctor.stdout).checks as { name: string; status: string; detail: string }[];
    const pacing = checks.find((check) => check.name === 'shared pacing');
    expect(pacing?.status).toBe('ok');
    expect(pacing?.detail).toContain(`pid ${push.pid}`);
    const off = await runSvc(['doctor', '--json'], {
      env: envOf(emu, configDir, { SVC_SHARED_PACING: '0' }),
    });
    const offChecks = JSON.parse(off.stdout).checks as { name: string; detail: string }[];
    expect(offChecks.find((check) => check.name === 'shared pacing')?.detail).toMatch(
      /^off \(SVC_SHARED_PACING=0\)/,
    );
  });
});

describe('a wait the service asks for that svc refuses', () => {
  it('is not left in the shared state for the next process to sit out', async () => {
    const emu = await start();
    const configDir = freshConfigDir();
    // Retry-After beyond 120 s: the first process gives up at once (exit 5)…
    emu.faults.inject({ method: 'GET', path: '/orders', kind: 'rate_limited', retryAfter: 500 });
    const first = await runSvc(['orders', 'list'], { env: envOf(emu, configDir) });
    expect(first.code, first.stderr).toBe(5);
    expect(first.stderr).toMatch(/500 s, longer than 120 s/);
    // …and the next one on the same key is not held for those 500 s.
    const next = await runSvc(['products', 'list', '--limit', '1'], {
      env: envOf(emu, configDir),
      timeoutMs: 20_000,
    });
    expect(next.signal).toBeNull();
    expect(next.code, next.stderr).toBe(0);
  });
});
