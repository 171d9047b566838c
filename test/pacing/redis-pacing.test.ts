/**
 * Pacing and the quota count shared through Redis (SVC_PACING_URL): processes that stand for
 * separate machines (a config dir each) share one key's bucket and count, against a real
 * redis-server; Redis is a helper, never a requirement.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { sharedBucketId } from '../../src/client/pacing/record-file.js';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { emulatorPerTest } from '../helpers/emulator.js';
import { redisInstalled, redisPerTest } from '../helpers/redis-server.js';
import { mismatches, quantityFile } from '../helpers/stock-rows.js';
import { freshConfigDir, HANG_MS, runSvc, SVC_BIN } from '../helpers/svc.js';

const hasRedis = redisInstalled();
const startRedis = redisPerTest();
/** A bucket (10, draining 20/s) that three pushes cannot share blindly. */
const startEmulator = emulatorPerTest({ products: 40, bucket: 10, drainPerSecond: 20, channelDelayMs: 0 });

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

function stockFile(emu: RunningEmulator, offset: number, count: number) {
  return quantityFile(emu, offset, count, 2000);
}

/** A machine of its own: its own config dir; the key, the service and Redis shared. */
function machineEnv(emu: RunningEmulator, pacingUrl: string, extra: Record<string, string> = {}) {
  return {
    SVC_BASE_URL: emu.url,
    SVC_API_KEY: emu.keys.live,
    SVC_CONFIG_DIR: freshConfigDir(),
    SVC_PACING_URL: pacingUrl,
    ...extra,
  };
}

interface Finished {
  code: number | null;
  stderr: string;
}

/** `svc ARGS` as a child process of its own, its stderr collected. */
function spawnSvc(
  args: string[],
  env: Record<string, string>,
): { child: ChildProcess; done: Promise<Finished> } {
  const base: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (value !== undefined && !name.startsWith('SVC_') && name !== 'CI') base[name] = value;
  }
  const child = spawn(process.execPath, [SVC_BIN, ...args], {
    env: { ...base, NO_COLOR: '1', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  children.push(child);
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  // A run still going after HANG_MS is hung: killed, with what it said so far, before the test's own timeout.
  const hung = setTimeout(() => {
    stderr += `\n(svc ${args.join(' ')} was still running after ${HANG_MS / 1000} s: killed)\n`;
    child.kill('SIGKILL');
  }, HANG_MS);
  const done = new Promise<Finished>((resolve) =>
    child.on('close', (code) => {
      clearTimeout(hung);
      resolve({ code, stderr });
    }),
  );
  return { child, done };
}

async function batchesHandled(emu: RunningEmulator, count: number): Promise<void> {
  const giveUpAt = Date.now() + 20_000;
  while (emu.requests({ method: 'POST', path: '/inventory/batch' }).length < count) {
    if (Date.now() > giveUpAt) throw new Error(`the emulator saw fewer than ${count} batches in 20 s`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const warnings = (stderr: string) => stderr.split('\n').filter((line) => line.startsWith('warning:'));

describe.skipIf(!hasRedis)('pacing shared through Redis (redis-server installed)', () => {
  it('three pushes with a config dir each and one SVC_PACING_URL: no 429, and the store equals the files', async () => {
    const emu = await startEmulator();
    const redis = await startRedis();
    const files = [stockFile(emu, 0, 12), stockFile(emu, 12, 12), stockFile(emu, 24, 12)];
    const runs = files.map((file) =>
      spawnSvc(['inventory', 'push', file.path, '--batch-size', '1'], machineEnv(emu, redis.url)),
    );
    const results = await Promise.all(runs.map((run) => run.done));
    for (const result of results) {
      expect(result.code, result.stderr).toBe(0);
      expect(warnings(result.stderr)).toEqual([]);
    }
    for (const file of files) expect(mismatches(emu, file.rows)).toEqual([]);
    expect(emu.requests({ method: 'POST', path: '/inventory/batch' })).toHaveLength(36);
    expect(emu.requests({ status: 429 })).toEqual([]);
    // What Redis holds is named by a hash, never by the key.
    const keys = redis.cli('--scan').trim().split('\n');
    expect(keys.some((key) => /^svc:pacing:[0-9a-f]{32}$/.test(key))).toBe(true);
    expect(keys.join('\n')).not.toContain(emu.keys.live);
    const ttl = Number(redis.cli('pttl', keys.find((key) => key.startsWith('svc:pacing:')) ?? '').trim());
    expect(ttl).toBeGreaterThan(0);
  });

  it('Redis stopped mid-way: every push still finishes (exit 0), each with one warning naming SVC_PACING_URL', async () => {
    const emu = await startEmulator();
    const redis = await startRedis();
    const files = [stockFile(emu, 0, 12), stockFile(emu, 12, 12), stockFile(emu, 24, 12)];
    const runs = files.map((file) =>
      spawnSvc(['inventory', 'push', file.path, '--batch-size', '1'], machineEnv(emu, redis.url)),
    );
    await batchesHandled(emu, 8);
    await redis.stop();
    const results = await Promise.all(runs.map((run) => run.done));
    for (const result of results) {
      expect(result.code, result.stderr).toBe(0);
      const said = warnings(result.stderr);
      expect(said, result.stderr).toHaveLength(1);
      expect(said[0]).toContain('SVC_PACING_URL');
    }
    for (const file of files) expect(mismatches(emu, file.rows)).toEqual([]);
  });

  it('Redis back mid-run: the push shares through it again and adds the quota it counted meanwhile', async () => {
    // A slow bucket keeps the push going while Redis is away and long after it is back (its
    // retries back off up to a few seconds; a busy machine must not end the push first).
    const emu = await startEmulator({ bucket: 2, drainPerSecond: 4 });
    const redis = await startRedis();
    const file = stockFile(emu, 0, 40);
    const run = spawnSvc(
      ['inventory', 'push', file.path, '--batch-size', '1', '--debug'],
      machineEnv(emu, redis.url),
    );
    await batchesHandled(emu, 5);
    const id = sharedBucketId(emu.keys.live, emu.url);
    const day = new Date().toISOString().slice(0, 10);
    const countedBefore = Number(redis.cli('get', `svc:quota:${id}:${day}`).trim());
    await redis.stop();
    await batchesHandled(emu, 10);
    await redis.restart();
    const result = await run.done;
    expect(result.code, result.stderr).toBe(0);
    expect(mismatches(emu, file.rows)).toEqual([]);
    expect(warnings(result.stderr)).toHaveLength(1);
    expect(result.stderr).toContain(`SVC_PACING_URL (${redis.url}) answers again`);
    expect(redis.cli('exists', `svc:pacing:${id}`).trim()).toBe('1');
    // The Redis that came back is empty (nothing persisted): it holds every write counted since
    // the old one went, those of the outage included, added once it answered again. (One or
    // two may have reached the old one between the look above and its end.)
    const countedAfter = Number(redis.cli('get', `svc:quota:${id}:${day}`).trim());
    expect(countedBefore).toBeGreaterThanOrEqual(1);
    expect(emu.writeQuotaUsed()).toBe(40);
    expect(countedBefore + countedAfter).toBeGreaterThanOrEqual(38);
    expect(countedBefore + countedAfter).toBeLessThanOrEqual(40);
  });

  it("a profile's pacing_url shares as SVC_PACING_URL does, which wins over it", async () => {
    const emu = await startEmulator();
    const redis = await startRedis();
    const configDir = freshConfigDir();
    const profile = { base_url: emu.url, api_key: emu.keys.live, key_storage: 'file', pacing_url: redis.url };
    writeFileSync(
      join(configDir, 'config.json'),
      JSON.stringify({ current_profile: 'ci', profiles: { ci: profile } }),
      { mode: 0o600 },
    );
    const env = { SVC_CONFIG_DIR: configDir };
    const push = await runSvc(['inventory', 'push', stockFile(emu, 0, 3).path], { env });
    expect(push.code, push.stderr).toBe(0);
    expect(warnings(push.stderr)).toEqual([]);
    const id = sharedBucketId(emu.keys.live, emu.url);
    expect(redis.cli('exists', `svc:pacing:${id}`).trim()).toBe('1');
    const quota = JSON.parse((await runSvc(['quota', '--json'], { env })).stdout);
    expect(quota.counted_on).toBe('every machine sharing pacing_url of profile "ci"');
    await redis.stop();
    const gone = await runSvc(['inventory', 'push', stockFile(emu, 3, 3).path], { env });
    expect(gone.code, gone.stderr).toBe(0);
    expect(warnings(gone.stderr)[0]).toContain('pacing_url of profile "ci"');
    const overridden = await runSvc(['inventory', 'push', stockFile(emu, 6, 3).path], {
      env: { ...env, SVC_PACING_URL: 'redis://127.0.0.1:1' },
    });
    expect(overridden.code, overridden.stderr).toBe(0);
    expect(warnings(overridden.stderr)[0]).toContain('SVC_PACING_URL (redis://127.0.0.1:1)');
  });

  it('Redis unreachable at start: one warning, then the push paces on its own and finishes', async () => {
    const emu = await startEmulator();
    const redis = await startRedis();
    await redis.stop();
    const file = stockFile(emu, 0, 12);
    const started = Date.now();
    const result = await runSvc(['inventory', 'push', file.path, '--batch-size', '1'], {
      env: machineEnv(emu, redis.url),
    });
    expect(result.code, result.stderr).toBe(0);
    expect(warnings(result.stderr)).toHaveLength(1);
    expect(warnings(result.stderr)[0]).toMatch(/SVC_PACING_URL .*does not answer/);
    expect(mismatches(emu, file.rows)).toEqual([]);
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('svc quota after pushes from two config dirs sharing one Redis shows the sum', async () => {
    const emu = await startEmulator();
    const redis = await startRedis();
    const envs = [machineEnv(emu, redis.url), machineEnv(emu, redis.url)];
    const results = await Promise.all(
      envs.map((env, i) =>
        runSvc(['inventory', 'push', stockFile(emu, i * 10, 10).path, '--batch-size', '2'], {
          env,
          process: true,
        }),
      ),
    );
    for (const result of results) expect(result.code, result.stderr).toBe(0);
    expect(emu.writeQuotaUsed()).toBe(10);
    for (const env of envs) {
      const shown = await runSvc(['quota', '--json'], { env });
      expect(shown.code, shown.stderr).toBe(0);
      expect(JSON.parse(shown.stdout)).toMatchObject({
        spent: 10,
        counted_by: 'svc',
        counted_on: 'every machine sharing SVC_PACING_URL',
      });
    }
    const [env] = envs;
    const text = await runSvc(['quota', '-o', 'table'], { env });
    expect(text.stdout).toContain('svc has spent 10 units of daily write quota today');
    // This machine's share stays in its own count.
    expect(JSON.parse((await runSvc(['quota', '--json'], { env })).stdout).this_machine).toBe(5);
  });

  it('doctor checks Redis: reachable, latency and version, and lists the processes sharing the key', async () => {
    const emu = await startEmulator();
    const redis = await startRedis();
    const env = machineEnv(emu, redis.url);
    const doctor = await runSvc(['doctor', '--json'], { env });
    const checks: { name: string; status: string; detail: string }[] = JSON.parse(doctor.stdout).checks;
    const line = checks.find((check) => check.name === 'pacing url');
    expect(line?.status).toBe('ok');
    expect(line?.detail).toMatch(/answers in \d+(\.\d+)? ms \(Redis \d+\.\d+\.\d+\)/);
    await redis.stop();
    const down = JSON.parse((await runSvc(['doctor', '--json'], { env })).stdout).checks.find(
      (check: { name: string }) => check.name === 'pacing url',
    );
    expect(down.status).toBe('warn');
    expect(down.detail).toContain('does not answer');
  });

  it('the password in SVC_PACING_URL never appears: warnings, --debug, doctor, errors', async () => {
    const emu = await startEmulator();
    const password = 'pw';
    const redis = await startRedis({ password });
    const secretUrl = redis.url;
    expect(secretUrl).toContain(`:${password}@`);
    const env = machineEnv(emu, secretUrl);
    const outputs: string[] = [];
    const push = await runSvc(['inventory', 'push', stockFile(emu, 0, 3).path, '--debug'], { env });
    expect(push.code, push.stderr).toBe(0);
    expect(warnings(push.stderr)).toEqual([]);
    outputs.push(push.stdout, push.stderr);
    for (const args of [
      ['doctor'],
      ['doctor', '--json'],
      ['quota', '--json'],
      ['auth', 'status', '--debug'],
    ]) {
      const result = await runSvc(args, { env });
      outputs.push(result.stdout, result.stderr);
    }
    // A wrong password: refused by Redis, said without the password svc was given.
    const wrong = machineEnv(emu, secretUrl.replace(`:${password}@`, ':wrong-secret@'));
    const refused = await runSvc(['inventory', 'push', stockFile(emu, 3, 3).path, '--debug'], { env: wrong });
    expect(refused.code, refused.stderr).toBe(0);
    expect(warnings(refused.stderr)).toHaveLength(1);
    outputs.push(refused.stdout, refused.stderr);
    const doctorWrong = await runSvc(['doctor'], { env: wrong });
    outputs.push(doctorWrong.stdout, doctorWrong.stderr);
    // Redis gone: the warning names the URL, password masked.
    await redis.stop();
    const gone = await runSvc(['inventory', 'push', stockFile(emu, 6, 3).path, '--debug'], { env });
    expect(gone.code, gone.stderr).toBe(0);
    expect(warnings(gone.stderr)[0]).toContain(`redis://default:***@127.0.0.1:${redis.port}`);
    outputs.push(gone.stdout, gone.stderr);
    const all = outputs.join('\n');
    expect(all).not.toContain(`:${password}@`);
    expect(all).not.toContain('wrong-secret');
  });

  it('a URL svc cannot use is refused before anything is sent (exit 2), password unsaid', async () => {
    const emu = await startEmulator();
    const env = machineEnv(emu, 'http://user:hunter22@127.0.0.1:6379');
    const result = await runSvc(['inventory', 'push', stockFile(emu, 0, 2).path], { env });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('SVC_PACING_URL must be redis://');
    expect(result.stderr).not.toContain('hunter22');
    expect(emu.requests()).toEqual([]);
  });
});
