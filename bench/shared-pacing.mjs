// Pacing shared across processes (issue 23). Against one emulator (in this process, so its
// request log can be read) with bucket 10 and drain 20/s, 2 and 4 concurrent
// `svc inventory push` processes of 40 requests each:
//  - on one key: zero 429s and, from the first request to the last answer, at most 1.10x the
//    minimum (total requests - bucket) / drain;
//  - with a key per process: each process within 1.10x of its own minimum (40 - 10) / 20,
//    unaffected by the others;
//  - for comparison, one key with SVC_SHARED_PACING=0 (what jobs on separate machines do).
// Prints its figures; not a timed test.
//
//   node bench/shared-pacing.mjs
//   BENCH_TRIALS=5 node bench/shared-pacing.mjs
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildCliTree, cliEnv, fmt, loadEmulator, machine, median, tmp } from './lib/harness.mjs';

const BUCKET = 10;
const DRAIN = 20;
const REQUESTS = 40;
const BATCH = Number(process.env.BENCH_BATCH ?? 100);
const TRIALS = Number(process.env.BENCH_TRIALS ?? 3);
const PROCESS_COUNTS = (process.env.BENCH_PROCESSES ?? '2,4').split(',').map(Number);
const MODES = (process.env.BENCH_MODES ?? 'one key,own keys,one key not shared').split(',');

const svc = await buildCliTree('shared-pacing-cli');
const { startEmulator } = await loadEmulator('shared-pacing');
const maxProcesses = Math.max(...PROCESS_COUNTS);
const emulator = await startEmulator({
  // Seeded products have 3.7 variants on average: enough SKUs for every process's own file.
  products: Math.ceil((maxProcesses * REQUESTS * BATCH) / 3.5) + 100,
  orders: 0,
  bucket: BUCKET,
  drainPerSecond: DRAIN,
  channelDelayMs: 0,
});
const skus = emulator.store.allSkus();
const ownKeys = Array.from({ length: maxProcesses }, (_, i) => emulator.createKey({ name: `job${i + 1}` }));

console.log(
  `shared pacing: bucket ${BUCKET}, drain ${DRAIN}/s, ${REQUESTS} requests of ${BATCH} SKUs per process, ` +
    `${TRIALS} trials; target <= 1.10x the minimum and no 429`,
);
console.log(`machine: ${machine()}`);

/** A CSV of the SKUs of process `index`, with quantities new to this trial. */
function pushFile(index, trial) {
  const rows = skus.slice(index * REQUESTS * BATCH, (index + 1) * REQUESTS * BATCH);
  const path = join(tmp, `shared-pacing-${index}.csv`);
  writeFileSync(
    path,
    `sku,quantity\n${rows.map((sku, i) => `${sku},${(i + trial * 7) % 1000}`).join('\n')}\n`,
  );
  return path;
}

function run(args, env) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

/** One trial: `count` pushes started together; `mode` is 'one key', 'own keys' or 'one key not shared'. */
async function trial(count, mode, trialIndex) {
  emulator.reset();
  const configDir = mkdtempSync(join(tmp, 'shared-config-'));
  const runs = await Promise.all(
    Array.from({ length: count }, (_, i) => {
      const env = cliEnv({
        SVC_API_KEY: mode.startsWith('own keys') ? ownKeys[i] : emulator.keys.live,
        SVC_BASE_URL: emulator.url,
        SVC_CONFIG_DIR: configDir,
        ...(mode.endsWith('not shared') ? { SVC_SHARED_PACING: '0' } : {}),
      });
      return run([svc, 'inventory', 'push', pushFile(i, trialIndex), '--batch-size', String(BATCH)], env);
    }),
  );
  const failed = runs.find((r) => r.code !== 0);
  if (failed) throw new Error(`a push failed (exit ${failed.code}): ${failed.stderr.trim().split('\n')[0]}`);
  const log = emulator.requests({ path: '/inventory/batch' });
  const rateLimited = emulator.requests({ status: 429 }).length;
  if (!mode.startsWith('own keys')) {
    const admitted = log.filter((r) => r.status !== 429).length;
    const minimumMs = ((admitted - BUCKET) / DRAIN) * 1000;
    const elapsedMs = log[log.length - 1].atMs - log[0].atMs;
    return { elapsedMs, minimumMs, ratio: elapsedMs / minimumMs, rateLimited, requests: log.length };
  }
  // Each key on its own: the worst of the processes against its own minimum.
  const minimumMs = ((REQUESTS - BUCKET) / DRAIN) * 1000;
  let worst = { ratio: 0 };
  for (let i = 0; i < count; i += 1) {
    const own = log.filter((r) => r.keyName === `job${i + 1}`);
    const elapsedMs = own[own.length - 1].atMs - own[0].atMs;
    if (elapsedMs / minimumMs > worst.ratio) worst = { elapsedMs, ratio: elapsedMs / minimumMs };
  }
  return { ...worst, minimumMs, rateLimited, requests: log.length };
}

const verdicts = [];
try {
  for (const mode of MODES) {
    for (const count of PROCESS_COUNTS) {
      const results = [];
      for (let t = 0; t < TRIALS; t += 1) results.push(await trial(count, mode, t));
      const ratios = results.map((r) => r.ratio);
      const all429 = results.reduce((sum, r) => sum + r.rateLimited, 0);
      const label = `${count} pushes, ${mode}`.padEnd(30);
      const trials = results
        .map((r) => `${fmt.s(r.elapsedMs)} ${fmt.x(r.ratio)} ${r.rateLimited}x429`)
        .join(' | ');
      const compared = mode.endsWith('not shared');
      const met = all429 === 0 && Math.max(...ratios) <= 1.1;
      if (!compared) verdicts.push({ label: `${count} pushes, ${mode}`, met });
      console.log(
        `${label} min ${fmt.x(Math.min(...ratios))}  median ${fmt.x(median(ratios))}  max ${fmt.x(Math.max(...ratios))}` +
          ` of ${fmt.s(results[0].minimumMs)}${mode.startsWith('own keys') ? ' (worst process)' : ''}, ${all429} x 429 in all` +
          `${compared ? '  (for comparison)' : `  ${met ? 'PASS' : 'FAIL'}`}`,
      );
      console.log(`${' '.repeat(30)} trials: ${trials}`);
    }
  }
} finally {
  await emulator.close();
}
const missed = verdicts.filter((v) => !v.met).map((v) => v.label);
console.log(`\nshared pacing: ${missed.length === 0 ? 'all targets met' : `MISSED: ${missed.join(', ')}`}`);
process.exitCode = 0;
