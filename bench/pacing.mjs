// Pacing benchmark: against an emulator with bucket 10 and drain 20/s, a 200-request
// paginated crawl should see zero 429s and take at most 1.1x the theoretical minimum
// (200 - 10) / 20 s, from first request to last answer. Prints its figures; not a timed test.
//
//   node bench/pacing.mjs            library crawls, then `svc api --paginate` as a subprocess
//   BENCH_TRIALS=5 node bench/pacing.mjs
import { spawn } from 'node:child_process';
import { buildCliTree, cliEnv, loadEmulator, machine } from './lib/harness.mjs';

const BUCKET = 10;
const DRAIN = 20;
const REQUESTS = 200;
const MINIMUM_MS = ((REQUESTS - BUCKET) / DRAIN) * 1000;
const TRIALS = Number(process.env.BENCH_TRIALS ?? 3);

function figures(label, elapsedMs, rateLimited, requests, extra = '') {
  const ratio = elapsedMs / MINIMUM_MS;
  const verdict = rateLimited === 0 && ratio <= 1.1 ? 'ok' : 'MISSED';
  console.log(
    `${label.padEnd(34)} ${String(requests).padStart(4)} requests  ${(elapsedMs / 1000).toFixed(2)} s  ` +
      `${ratio.toFixed(3)}x min  ${rateLimited} x 429  ${verdict}${extra}`,
  );
  return { elapsedMs, ratio, rateLimited, ok: verdict === 'ok' };
}

/** Crawls through ApiClient in this process: `workers` crawls sharing one client and its pacer. */
async function libraryCrawl(lib, workers) {
  const emulator = await lib.startEmulator({ bucket: BUCKET, drainPerSecond: DRAIN, orders: REQUESTS });
  const client = new lib.ApiClient({
    baseUrl: emulator.url,
    apiKey: emulator.keys.live,
    userAgent: 'svc/bench',
  });
  try {
    const each = REQUESTS / workers;
    await Promise.all(
      Array.from({ length: workers }, async () => {
        for await (const _order of client.list('/orders', { limit: 1 }, undefined, { limit: each })) {
          // Pages of one order: every item is one request.
        }
      }),
    );
    const { firstSentAt, lastAnswerAt, requests } = client.stats;
    const rateLimited = emulator.requests({ status: 429 }).length;
    const pacing = client.pacing();
    const label = workers === 1 ? 'library, one crawl' : `library, ${workers} concurrent crawls`;
    return figures(
      label,
      lastAnswerAt - firstSentAt,
      rateLimited,
      requests,
      `  (drain proven >= ${pacing.learnedDrainPerSecond?.toFixed(2)}/s, paced at ${pacing.drainPerSecond?.toFixed(2)}/s)`,
    );
  } finally {
    await client.close();
    await emulator.close();
  }
}

/** `svc api GET /orders -F limit=1 --paginate` as a subprocess, timed by the emulator's request log. */
async function cliCrawl(lib, launcher) {
  const emulator = await lib.startEmulator({ bucket: BUCKET, drainPerSecond: DRAIN, orders: REQUESTS });
  try {
    // A config dir of the bench's own: the shared pacing file goes there, not into the user's.
    const env = cliEnv({ SVC_API_KEY: emulator.keys.live, SVC_BASE_URL: emulator.url });
    const args = [launcher, 'api', 'GET', '/orders', '-F', 'limit=1', '--paginate', '-o', 'ndjson'];
    const { code, stdout, stderr } = await run(process.execPath, args, env);
    const log = emulator.requests({ path: '/orders' });
    if (code !== 0 || log.length === 0) {
      console.log(
        `svc api --paginate                 failed (exit ${code}): ${stderr.trim().split('\n')[0] ?? ''}`,
      );
      return undefined;
    }
    const lines = stdout.split('\n').filter(Boolean).length;
    // The log stamps each request when it is handled; the last answer leaves right after.
    const elapsedMs = log[log.length - 1].atMs - log[0].atMs;
    const rateLimited = log.filter((record) => record.status === 429).length;
    return figures(
      'svc api --paginate (subprocess)',
      elapsedMs,
      rateLimited,
      log.length,
      `  (${lines} orders out)`,
    );
  } finally {
    await emulator.close();
  }
}

function run(command, args, env) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const lib = await loadEmulator('pacing', "export { ApiClient } from './src/client/client.ts';\n");
console.log(
  `pacing: bucket ${BUCKET}, drain ${DRAIN}/s, ${REQUESTS} requests; minimum ${(MINIMUM_MS / 1000).toFixed(1)} s, ` +
    `target <= 1.1x and no 429`,
);
console.log(`machine: ${machine()}`);
const results = [];
for (let trial = 0; trial < TRIALS; trial += 1) results.push(await libraryCrawl(lib, 1));
results.push(await libraryCrawl(lib, 4));
const launcher = await buildCliTree('pacing-cli');
for (let trial = 0; trial < TRIALS; trial += 1) {
  const result = await cliCrawl(lib, launcher);
  if (result) results.push(result);
}
const worst = Math.max(...results.map((r) => r.ratio));
const total429 = results.reduce((sum, r) => sum + r.rateLimited, 0);
console.log(
  `worst ${worst.toFixed(3)}x the minimum, ${total429} x 429 in all: ${results.every((r) => r.ok) ? 'met' : 'NOT met'}`,
);
process.exitCode = 0;
