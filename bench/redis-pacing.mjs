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
import { redisInstalled, startRedis } from './lib/redis.mjs';

const BUCKET = 10;
const DRAIN = 20;
const REQUESTS = 40;
const BATCH = Number(process.env.BENCH_BATCH ?? 100);
const TRIALS = Number(process.env.BENCH_TRIALS ?? 3);
const PROCESS_COUNTS = (process.env.BENCH_PROCESSES ?? '2,3,4').split(',').map(Number);
const STEPS = 500;

if (!redisInstalled()) {
  console.log('redis pacing: redis-server is not installed here; skipped');
  process.exit(0);
}

const svc = await buildCliTree('redis-pacing-cli');
const lib = await loadEmulator(
  'redis-pacing',
  [
    "export { RedisLink } from './src/client/pacing/redis-link.ts';",
    "export { RedisStore } from './src/client/pacing/redis-store.ts';",
    "export { FileStore, sharedBucketId } from './src/client/pacing/record-file.ts';",
    "export { parsePacingUrl } from './src/client/pacing/pacing-url.ts';",
  ].join('\n'),
);
const maxProcesses = Math.max(...PROCESS_COUNTS);
const emulator = await lib.startEmulator({
  products: Math.ceil((maxProcesses * REQUESTS * BATCH) / 3.5) + 100,
  orders: 0,
  bucket: BUCKET,
  drainPerSecond: DRAIN,
  channelDelayMs: 0,
});
const redis = await startRedis();
const skus = emulator.store.allSkus();

console.log(
  `redis pacing: bucket ${BUCKET}, drain ${DRAIN}/s, pushes of ${REQUESTS} requests of ${BATCH} SKUs, ` +
    `a config dir each, ${TRIALS} trials; target: no 429 and <= 1.10x the minimum`,
);
console.log(`machine: ${machine()}; ${redis.cli('INFO', 'server').match(/redis_version:(\S+)/)?.[0] ?? ''}`);

/** A CSV of the SKUs of process `index`, with quantities new to this trial. */
function pushFile(index, trial) {
  return pushFileOf(skus, { name: 'redis-pacing', index, trial, perProcess: REQUESTS * BATCH });
}

/** Calls of each Redis command so far (INFO commandstats), those that svc's scripts run inside Redis included. */
function commandCalls() {
  const calls = {};
  for (const [, name, count] of redis
    .cli('INFO', 'commandstats')
    .matchAll(/cmdstat_([a-z|]+):calls=(\d+)/g)) {
    calls[name] = Number(count);
  }
  return calls;
}

/** `count` pushes on the live key, started together, a config dir each; with Redis or without. */
async function pushes(count, trial, withRedis) {
  emulator.reset();
  redis.cli('FLUSHALL');
  const since = emulator.requests().length;
  const before = commandCalls();
  const runs = await Promise.all(
    Array.from({ length: count }, (_, i) => {
      const env = cliEnv({
        SVC_API_KEY: emulator.keys.live,
        SVC_BASE_URL: emulator.url,
        SVC_CONFIG_DIR: mkdtempSync(join(tmp, 'redis-config-')),
        ...(withRedis ? { SVC_PACING_URL: redis.url } : {}),
      });
      return runForStderr([svc, 'inventory', 'push', pushFile(i, trial), '--batch-size', String(BATCH)], env);
    }),
  );
  const after = commandCalls();
  const delta = (name) => (after[name] ?? 0) - (before[name] ?? 0);
  // Commands sent by svc, each one round trip (the ones its scripts run inside Redis are not):
  // scripts, the quota count (MULTI … EXEC in one write), and per connection INFO, TIME, QUIT.
  const scripts = delta('evalsha') + delta('eval');
  const roundTrips = scripts + delta('multi') + delta('time') + delta('quit') + delta('info') - 1;
  // Inside the scripts: SET NX takes the lock (PTTL when taken), HINCRBY writes the record.
  const updates = delta('hincrby');
  const taken = delta('pttl');
  const givenBack = Math.max(0, delta('del') - updates);
  const looks = scripts - delta('set') - updates - givenBack;
  const failed = runs.find((r) => r.code !== 0);
  if (failed) throw new Error(`a push failed (exit ${failed.code}): ${failed.stderr.trim().split('\n')[0]}`);
  const warned = runs.filter((r) => /^warning:/m.test(r.stderr)).length;
  const requests = emulator.requests().slice(since);
  const log = requests.filter((r) => r.path === '/inventory/batch');
  const admitted = log.filter((r) => r.status !== 429).length;
  const elapsedMs = log[log.length - 1].atMs - log[0].atMs;
  const minimumMs = ((admitted - BUCKET) / DRAIN) * 1000;
  return {
    elapsedMs,
    minimumMs,
    ratio: elapsedMs / minimumMs,
    rateLimited: requests.filter((r) => r.status === 429).length,
    perRequest: {
      roundTrips: roundTrips / requests.length,
      updates: updates / requests.length,
      taken: taken / requests.length,
      looks: looks / requests.length,
      counts: delta('multi') / requests.length,
    },
    warned,
  };
}

const spread = (ratios) =>
  `min ${fmt.x(Math.min(...ratios))}  median ${fmt.x(median(ratios))}  max ${fmt.x(Math.max(...ratios))}`;
const verdicts = [];

/** Milliseconds of `steps` runs of `step`, one after another: median, 90th percentile, mean. */
async function timed(step) {
  for (let i = 0; i < 20; i += 1) await step();
  const times = [];
  for (let i = 0; i < STEPS; i += 1) {
    const started = performance.now();
    await step();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const mean = times.reduce((sum, t) => sum + t, 0) / times.length;
  return { median: median(times), p90: times[Math.floor(times.length * 0.9)], mean };
}

/** One locked update and one look, on Redis and on the state file, with a record as a push leaves it. */
async function sharedStep(recordText) {
  const id = lib.sharedBucketId(emulator.keys.live, emulator.url);
  const link = new lib.RedisLink(lib.parsePacingUrl(redis.url, { env: true }));
  const onRedis = new lib.RedisStore(link, id);
  const onFile = new lib.FileStore(mkdtempSync(join(tmp, 'redis-bench-file-')), id);
  const real = recordText ? JSON.parse(recordText) : undefined;
  const results = {};
  try {
    for (const [name, store] of [
      ['Redis', onRedis],
      ['state file', onFile],
    ]) {
      // The record a push leaves (its bucket model: 64 answers remembered), so sizes are real.
      await store.transact((record) => {
        if (real) Object.assign(record, { ...real, processes: {} });
      });
      const update = await timed(() =>
        store.transact((record) => {
          record.grants += 1;
        }),
      );
      const look = await timed(() => store.peek());
      results[name] = { update, look };
    }
  } finally {
    await link.close();
  }
  return { results, bytes: recordText?.length ?? 0 };
}

try {
  console.log('\n-- on one key, a config dir each (separate machines)');
  let lastRecord;
  const perRequest = { roundTrips: [], updates: [], taken: [], looks: [], counts: [] };
  for (const count of PROCESS_COUNTS) {
    const shared = [];
    const alone = [];
    for (let t = 0; t < TRIALS; t += 1) {
      shared.push(await pushes(count, t, true));
      const key = `svc:pacing:${lib.sharedBucketId(emulator.keys.live, emulator.url)}`;
      lastRecord = redis.cli('HGET', key, 'rec') || lastRecord;
      alone.push(await pushes(count, t, false));
    }
    const ratios = shared.map((r) => r.ratio);
    const all429 = shared.reduce((sum, r) => sum + r.rateLimited, 0);
    const warned = shared.reduce((sum, r) => sum + r.warned, 0);
    const met = all429 === 0 && warned === 0 && Math.max(...ratios) <= 1.1;
    verdicts.push({ label: `${count} pushes through Redis`, met });
    for (const name of Object.keys(perRequest))
      perRequest[name].push(...shared.map((r) => r.perRequest[name]));
    console.log(
      `${`${count} pushes, SVC_PACING_URL`.padEnd(30)} ${spread(ratios)} of ${fmt.s(shared[0].minimumMs)}, ` +
        `${all429} x 429 in all  ${met ? 'PASS' : 'FAIL'}${warned ? ` (${warned} warned)` : ''}`,
    );
    console.log(
      `${''.padEnd(30)} ${shared.map((r) => `${fmt.s(r.elapsedMs)} ${fmt.x(r.ratio)} ${r.rateLimited} x 429`).join(' | ')}`,
    );
    const aloneRatios = alone.map((r) => r.ratio);
    const alone429 = alone.map((r) => r.rateLimited);
    console.log(
      `${`${count} pushes, no Redis`.padEnd(30)} ${spread(aloneRatios)}, ${alone429.join(' / ')} x 429 per trial  (for comparison)`,
    );
    console.log(
      `${''.padEnd(30)} ${alone.map((r) => `${fmt.s(r.elapsedMs)} ${fmt.x(r.ratio)} ${r.rateLimited} x 429`).join(' | ')}`,
    );
  }
  console.log('\n-- the shared step on loopback');
  const range = (values) =>
    `median ${median(values).toFixed(1)} (${Math.min(...values).toFixed(1)} to ${Math.max(...values).toFixed(1)})`;
  console.log('Redis round trips per request sent, in the pushes above (trials of every count):');
  console.log(`  in all                  ${range(perRequest.roundTrips)}`);
  console.log(`  locked updates          ${range(perRequest.updates)} (2 round trips each: take, write)`);
  console.log(`  lock found taken        ${range(perRequest.taken)} (1 each, then 1 ms and again)`);
  console.log(`  looks without the lock  ${range(perRequest.looks)} (every 10 ms while others send)`);
  console.log(`  quota counts            ${range(perRequest.counts)} (1 per accepted write)`);
  const { results, bytes } = await sharedStep(lastRecord);
  for (const [name, { update, look }] of Object.entries(results)) {
    console.log(
      `${name.padEnd(12)} locked update ${update.median.toFixed(3)} ms median (p90 ${update.p90.toFixed(3)}, mean ` +
        `${update.mean.toFixed(3)}); look ${look.median.toFixed(3)} ms median (p90 ${look.p90.toFixed(3)}); ` +
        `${STEPS} each, record of ${(bytes / 1024).toFixed(1)} KB`,
    );
  }
} finally {
  await emulator.close();
  await redis.stop();
}
const missed = verdicts.filter((v) => !v.met).map((v) => v.label);
console.log(`\nredis pacing: ${missed.length === 0 ? 'all targets met' : `MISSED: ${missed.join(', ')}`}`);
process.exitCode = 0;
