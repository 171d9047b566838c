// Pacing shared across processes. One emulator (in this process, so its request log
// can be read) with bucket 10 and drain 20/s; `svc inventory push` processes of 40 requests
// each (batches of 100 SKUs), started together:
//  - 2 and 4 on one key: zero 429s and, from the first request to the last answer, at most
//    1.10x the minimum (total requests - bucket) / drain. Cold: a fresh config dir, nothing
//    known of the key; warm: the state file an earlier push on the key left (the drain it proved);
//  - 2 and 4 with a key each: no 429, and each process unaffected by the others' sharing: as
//    fast as with SVC_SHARED_PACING=0 (trials interleaved). A lone push of 40 requests is shown
//    too (its own minimum is (40 - 10) / 20 = 1.5 s; it takes more, see RESULTS.md);
//  - for comparison, one key with SVC_SHARED_PACING=0 (what jobs on separate machines do);
//  - after a crash: a push SIGKILLed after its first batches (BENCH_KILL_AFTER, 3), then two
//    pushes on the key: how long after its start each sends its first batch, against the same
//    two pushes on a key nobody used (target: the dead push costs at most 1 s more, no 429).
// Prints its figures; not a timed test.
//
//   node bench/shared-pacing.mjs
//   BENCH_TRIALS=5 BENCH_PROCESSES=2,4 BENCH_BATCH=100 node bench/shared-pacing.mjs
//   BENCH_MODES=one-key,alone,own-keys,not-shared,after-kill node bench/shared-pacing.mjs
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import {
  buildCliTree,
  cliEnv,
  fmt,
  loadEmulator,
  machine,
  median,
  pushFileOf,
  runForStderr,
  tmp,
} from './lib/harness.mjs';

const BUCKET = 10;
const DRAIN = 20;
const REQUESTS = 40;
const BATCH = Number(process.env.BENCH_BATCH ?? 100);
const TRIALS = Number(process.env.BENCH_TRIALS ?? 3);
const PROCESS_COUNTS = (process.env.BENCH_PROCESSES ?? '2,4').split(',').map(Number);
const MODES = (process.env.BENCH_MODES ?? 'one-key,warm,alone,own-keys,not-shared,after-kill').split(',');
const KILL_AFTER = Number(process.env.BENCH_KILL_AFTER ?? 3);
/** What a dead push may add to the wait for the next pushes' first batch. */
const DEAD_HOLDER_BUDGET_MS = 1000;
const LONE_MINIMUM_MS = ((REQUESTS - BUCKET) / DRAIN) * 1000;

const svc = await buildCliTree('shared-pacing-cli');
const { startEmulator } = await loadEmulator('shared-pacing');
const maxProcesses = Math.max(...PROCESS_COUNTS);
const emulator = await startEmulator({
  // Seeded products have 3.7 variants on average: enough SKUs for a file of each process's own.
  products: Math.ceil((maxProcesses * REQUESTS * BATCH) / 3.5) + 100,
  orders: 0,
  bucket: BUCKET,
  drainPerSecond: DRAIN,
  channelDelayMs: 0,
});
const skus = emulator.store.allSkus();
const ownKeys = Array.from({ length: maxProcesses }, (_, i) => emulator.createKey({ name: `job${i + 1}` }));

console.log(
  `shared pacing: bucket ${BUCKET}, drain ${DRAIN}/s, pushes of ${REQUESTS} requests of ${BATCH} SKUs, ` +
    `${TRIALS} trials; target: no 429 and <= 1.10x the minimum`,
);
console.log(`machine: ${machine()}`);

/** A CSV of the SKUs of process `index`, with quantities new to this trial. */
function pushFile(index, trial) {
  return pushFileOf(skus, { name: 'shared-pacing', index, trial, perProcess: REQUESTS * BATCH });
}

/**
 * `count` pushes started together, on the live key or (ownKeys) a key each, sharing a config
 * dir (fresh unless given). Resolves the request log of their batches and the 429s it holds.
 */
async function pushes(count, trialIndex, { ownKeys: separate = false, shared = true, configDir } = {}) {
  if (configDir) {
    // Warm: the state file knows this key's bucket, so the bucket must drain as a real one
    // does (a reset would empty it at once, a drain faster than any the model could prove).
    await new Promise((resolve) => setTimeout(resolve, 1000));
  } else {
    emulator.reset();
    configDir = mkdtempSync(join(tmp, 'shared-config-'));
  }
  const since = emulator.requests().length;
  const runs = await Promise.all(
    Array.from({ length: count }, (_, i) => {
      const env = cliEnv({
        SVC_API_KEY: separate ? ownKeys[i] : emulator.keys.live,
        SVC_BASE_URL: emulator.url,
        SVC_CONFIG_DIR: configDir,
        SVC_SHARED_PACING: shared ? '1' : '0',
      });
      const file = pushFile(i, trialIndex);
      return runForStderr([svc, 'inventory', 'push', file, '--batch-size', String(BATCH)], env);
    }),
  );
  const failed = runs.find((r) => r.code !== 0);
  if (failed) throw new Error(`a push failed (exit ${failed.code}): ${failed.stderr.trim().split('\n')[0]}`);
  const requests = emulator.requests().slice(since);
  return {
    log: requests.filter((r) => r.path === '/inventory/batch'),
    rateLimited: requests.filter((r) => r.status === 429).length,
  };
}

const span = (log) => log[log.length - 1].atMs - log[0].atMs;

/**
 * When `svc inventory push --debug` sent its first batch, by its own stderr: `waitMs` from the
 * line that announces the push (the file is read and checked by then: what is left is pacing),
 * `firstMs` from its start (start-up and the check included, noisy on a busy machine).
 */
function firstBatchOf(args, env) {
  return new Promise((resolve) => {
    const started = performance.now();
    const child = spawn(process.execPath, [...args, '--debug'], { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    let announcedAt;
    let firstAt;
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
      const now = performance.now();
      if (announcedAt === undefined && /^Push .*LIVE key/m.test(stderr)) announcedAt = now;
      if (firstAt === undefined && stderr.includes('→ POST')) firstAt = now;
      if (stderr.length > 1 << 20) stderr = stderr.slice(-4096);
    });
    child.on('close', (code) =>
      resolve({
        code,
        firstMs: firstAt - started,
        waitMs: announcedAt === undefined ? Number.NaN : firstAt - announcedAt,
        stderr,
      }),
    );
  });
}

/**
 * Two pushes on the live key, started together, after a push on the key was SIGKILLed once
 * the emulator had handled KILL_AFTER of its batches (or, `kill` false, on a key nobody used).
 */
async function afterKill(trialIndex, kill) {
  emulator.reset();
  const configDir = mkdtempSync(join(tmp, 'shared-config-'));
  const env = cliEnv({
    SVC_API_KEY: emulator.keys.live,
    SVC_BASE_URL: emulator.url,
    SVC_CONFIG_DIR: configDir,
  });
  const push = (index) => [
    svc,
    'inventory',
    'push',
    pushFile(index, trialIndex),
    '--batch-size',
    String(BATCH),
  ];
  if (kill) {
    const victim = spawn(process.execPath, push(0), { env, stdio: 'ignore' });
    const exited = new Promise((resolve) => victim.once('exit', resolve));
    while (emulator.requests({ method: 'POST', path: '/inventory/batch' }).length < KILL_AFTER) {
      if (victim.exitCode !== null) throw new Error(`the push to kill ended first (exit ${victim.exitCode})`);
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    victim.kill('SIGKILL');
    await exited;
  }
  const since = emulator.requests().length;
  const runs = await Promise.all([1, 2].map((index) => firstBatchOf(push(index), env)));
  const failed = runs.find((r) => r.code !== 0);
  if (failed) throw new Error(`a push failed (exit ${failed.code}): ${failed.stderr.trim().split('\n')[0]}`);
  const rateLimited = emulator
    .requests()
    .slice(since)
    .filter((r) => r.status === 429).length;
  return { firstMs: runs.map((r) => r.firstMs), waitMs: runs.map((r) => r.waitMs), rateLimited };
}

/** All pushes on one key: first request to last answer against (admitted - bucket) / drain. */
async function oneKey(count, trialIndex, shared, configDir) {
  const { log, rateLimited } = await pushes(count, trialIndex, { shared, configDir });
  const minimumMs = ((log.filter((r) => r.status !== 429).length - BUCKET) / DRAIN) * 1000;
  return { elapsedMs: span(log), minimumMs, ratio: span(log) / minimumMs, rateLimited };
}

/** A key each: every process against its own minimum. */
async function keyEach(count, trialIndex, shared = true) {
  const { log, rateLimited } = await pushes(count, trialIndex, { ownKeys: true, shared });
  const ratios = [];
  for (let i = 0; i < count; i += 1) {
    ratios.push(span(log.filter((r) => r.keyName === `job${i + 1}`)) / LONE_MINIMUM_MS);
  }
  return { ratios, rateLimited };
}

const spread = (ratios) =>
  `min ${fmt.x(Math.min(...ratios))}  median ${fmt.x(median(ratios))}  max ${fmt.x(Math.max(...ratios))}`;
const verdicts = [];
const verdict = (label, met) => {
  verdicts.push({ label, met });
  return met ? 'PASS' : 'FAIL';
};

try {
  const oneKeyRuns = [
    { mode: 'one-key', shared: true, label: 'cold' },
    { mode: 'warm', shared: true, label: 'warm' },
    { mode: 'not-shared', shared: false, label: 'SVC_SHARED_PACING=0' },
  ].filter((run) => MODES.includes(run.mode));
  if (oneKeyRuns.length > 0) console.log('\n-- on one key');
  for (const { mode, shared, label } of oneKeyRuns) {
    for (const count of PROCESS_COUNTS) {
      let configDir;
      if (mode === 'warm') {
        // An earlier push on the key, untimed, leaves what it learned in the state file.
        emulator.reset();
        configDir = mkdtempSync(join(tmp, 'shared-config-'));
        await pushes(1, TRIALS, { configDir });
      }
      const results = [];
      for (let t = 0; t < TRIALS; t += 1) results.push(await oneKey(count, t, shared, configDir));
      const ratios = results.map((r) => r.ratio);
      const all429 = results.reduce((sum, r) => sum + r.rateLimited, 0);
      const met = all429 === 0 && Math.max(...ratios) <= 1.1;
      const name = `${count} pushes, ${label}`;
      console.log(
        `${name.padEnd(34)} ${spread(ratios)} of ${fmt.s(results[0].minimumMs)}, ${all429} x 429 in all  ` +
          `${shared ? verdict(`${count} pushes on one key, ${label}`, met) : '(for comparison)'}`,
      );
      console.log(
        `${''.padEnd(34)} ${results.map((r) => `${fmt.s(r.elapsedMs)} ${fmt.x(r.ratio)} ${r.rateLimited} x 429`).join(' | ')}`,
      );
    }
  }
  if (MODES.includes('alone') || MODES.includes('own-keys')) {
    console.log(`\n-- a key each; every process against its own minimum ${fmt.s(LONE_MINIMUM_MS)}`);
    const lone = [];
    for (let t = 0; t < 2 * TRIALS; t += 1) lone.push(await keyEach(1, t));
    const alone = lone.flatMap((r) => r.ratios);
    const all429 = lone.reduce((sum, r) => sum + r.rateLimited, 0);
    console.log(`${'1 push alone (baseline)'.padEnd(34)} ${spread(alone)}, ${all429} x 429 in all`);
    console.log(`${''.padEnd(34)} ${alone.map((ratio) => fmt.x(ratio)).join(' | ')}`);
  }
  if (MODES.includes('own-keys')) {
    for (const count of PROCESS_COUNTS) {
      const shared = [];
      const alone = [];
      for (let t = 0; t < TRIALS; t += 1) {
        shared.push(await keyEach(count, t));
        alone.push(await keyEach(count, t, false));
      }
      const ratios = shared.flatMap((r) => r.ratios);
      const unshared = alone.flatMap((r) => r.ratios);
      const all429 = [...shared, ...alone].reduce((sum, r) => sum + r.rateLimited, 0);
      // Unaffected: the sharing of the others changes nothing for a process on its own key.
      const met = all429 === 0 && median(ratios) <= 1.1 * median(unshared);
      console.log(
        `${`${count} pushes, a key each`.padEnd(34)} ${spread(ratios)}, ${all429} x 429 in all  ` +
          `${verdict(`${count} pushes, a key each`, met)} (median within 1.10x of SVC_SHARED_PACING=0's)`,
      );
      console.log(
        `${''.padEnd(34)} ${shared.map((r) => r.ratios.map((ratio) => fmt.x(ratio)).join(' ')).join(' | ')}`,
      );
      console.log(`${'  same, SVC_SHARED_PACING=0'.padEnd(34)} ${spread(unshared)}`);
      console.log(
        `${''.padEnd(34)} ${alone.map((r) => r.ratios.map((ratio) => fmt.x(ratio)).join(' ')).join(' | ')}`,
      );
    }
  }
  if (MODES.includes('after-kill')) {
    console.log(
      `\n-- after a push on the key was killed (SIGKILL) once ${KILL_AFTER} of its batches were handled: ` +
        "two pushes, each one's first batch after its start",
    );
    const killed = [];
    const fresh = [];
    for (let t = 0; t < TRIALS; t += 1) {
      killed.push(await afterKill(t, true));
      fresh.push(await afterKill(t, false));
    }
    const waits = (runs) => runs.flatMap((r) => r.waitMs);
    const starts = (runs) => runs.flatMap((r) => r.firstMs);
    const all429 = [...killed, ...fresh].reduce((sum, r) => sum + r.rateLimited, 0);
    // The wait once the file is checked, where the announcing line was seen; else from the start.
    const measured = waits(killed).every(Number.isFinite) && waits(fresh).every(Number.isFinite);
    const pick = measured ? waits : starts;
    const extra = Math.max(...pick(killed)) - median(pick(fresh));
    const met = all429 === 0 && extra <= DEAD_HOLDER_BUDGET_MS;
    const ms = (values) => values.map((v) => `${Math.round(v)}`).join(' ');
    console.log(
      `${'2 pushes after a kill -9'.padEnd(34)} at most ${Math.round(extra)} ms more than on a key nobody used ` +
        `(${measured ? 'waits once checked' : 'first batch after start'}), ${all429} x 429 in all  ` +
        `${verdict('2 pushes after a kill -9', met)} (<= ${DEAD_HOLDER_BUDGET_MS} ms more)`,
    );
    console.log(
      `${''.padEnd(34)} wait once checked, ms: ${ms(waits(killed))}; first batch after start: ${ms(starts(killed))}`,
    );
    console.log(
      `${'  same, on a key nobody used'.padEnd(34)} wait once checked, ms: ${ms(waits(fresh))}; first batch after start: ${ms(starts(fresh))}`,
    );
  }
} finally {
  await emulator.close();
}
const missed = verdicts.filter((v) => !v.met).map((v) => v.label);
console.log(`\nshared pacing: ${missed.length === 0 ? 'all targets met' : `MISSED: ${missed.join(', ')}`}`);
process.exitCode = 0;
