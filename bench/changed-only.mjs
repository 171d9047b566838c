// Changed-only push benchmark. Prints its figures; not a timed test.
//
// A 100,000-SKU store and a file of 100,000 rows of which 2% differ from it: `svc inventory
// push FILE` against `svc inventory push FILE --changed-only`, each on the same freshly seeded
// store (the emulator in this process, so its request log and write quota can be read; the
// CLI is a subprocess). For each: requests (reads and writes), write quota units, wall time,
// and beside them the theoretical figures: requests the run must make, and the least time
// the rate limit allows, (requests - bucket) / drain, at the rate used and at the default.
//
// The default rate limit (bucket 80, drain 4/s) makes the full push last about 4 minutes; the
// bench runs at a scaled drain (40/s by default) and gives the default's theoretical figures.
//
//   node bench/changed-only.mjs
//   BENCH_DRAIN=4 node bench/changed-only.mjs            the default rate limit itself
//   BENCH_SKUS=100000 BENCH_SHARE=0.02 BENCH_BUCKET=80 BENCH_DRAIN=40 node bench/changed-only.mjs
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import {
  buildCliTree,
  cell,
  cliEnv,
  fmt,
  loadEmulator,
  machine,
  runMeasured,
  tmp,
  writeCsv,
} from './lib/harness.mjs';

const SKUS = Number(process.env.BENCH_SKUS ?? 100_000);
const SHARE = Number(process.env.BENCH_SHARE ?? 0.02);
const BUCKET = Number(process.env.BENCH_BUCKET ?? 80);
const DRAIN = Number(process.env.BENCH_DRAIN ?? 40);
/** The emulator's (and the service's top tier's) default rate limit. */
const DEFAULT_BUCKET = 80;
const DEFAULT_DRAIN = 4;
const BATCH = 100;
const PAGE = 100;

const svc = await buildCliTree('changed-only-cli');
const { startEmulator } = await loadEmulator('changed-only');
console.log(`machine: ${machine()}`);

/** The least time `requests` take through a bucket of `bucket` draining at `drain` per second. */
const leastMs = (requests, bucket, drain) => (Math.max(0, requests - bucket) / drain) * 1000;

// Seeded products have 3.7 variants on average: a few more products than SKUs / 3.7.
const emulator = await startEmulator({
  products: Math.ceil(SKUS / 3.6),
  orders: 0,
  bucket: BUCKET,
  drainPerSecond: DRAIN,
  channelDelayMs: 0,
});
try {
  const products = emulator.store.products.size;
  const storeSkus = emulator.store.variantCount();
  const skus = emulator.store.allSkus().slice(0, SKUS);
  if (skus.length < SKUS) throw new Error(`the emulator has only ${skus.length} SKUs; ${SKUS} needed`);
  // Every 1/SHARE-th row gets a quantity it does not have; the rest are the store's values.
  const every = Math.round(1 / SHARE);
  const rows = skus.map((sku, i) => {
    const { quantity, price } = emulator.store.inventoryBySku(sku);
    const wanted = i % every === 0 ? (quantity ?? 0) + 1 : (quantity ?? 0);
    return `${cell(sku)},${wanted},${cell(price)}`;
  });
  const changed = Math.ceil(SKUS / every);
  const file = join(tmp, `changed-only-${SKUS}.csv`);
  await writeCsv(file, 'sku,quantity,price', rows);
  console.log(
    `\n-- ${storeSkus.toLocaleString('en-US')} SKUs in ${products.toLocaleString('en-US')} products; a file of ${SKUS.toLocaleString('en-US')} rows, ${changed.toLocaleString('en-US')} (${(SHARE * 100).toFixed(0)}%) changed; bucket ${BUCKET}, drain ${DRAIN}/s (default: bucket ${DEFAULT_BUCKET}, drain ${DEFAULT_DRAIN}/s)`,
  );

  const expected = {
    push: { reads: 0, writes: Math.ceil(SKUS / BATCH) },
    // The read pages through every product, then one closing pass of one page; then the changes.
    'push --changed-only': { reads: Math.ceil(products / PAGE) + 1, writes: Math.ceil(changed / BATCH) },
  };
  const results = [];
  for (const [label, extra] of [
    ['push', []],
    ['push --changed-only', ['--changed-only']],
  ]) {
    emulator.reset();
    const env = cliEnv({
      SVC_API_KEY: emulator.keys.live,
      SVC_BASE_URL: emulator.url,
      // A config dir of its own: no journal or shared pacing state from the run before.
      SVC_CONFIG_DIR: mkdtempSync(join(tmp, 'changed-only-config-')),
    });
    const run = await runMeasured([svc, 'inventory', 'push', file, '--json', ...extra], env, {
      keepStdout: true,
    });
    if (run.code !== 0)
      throw new Error(
        `${label} failed (exit ${run.code}): ${run.stderr.trim().split('\n').slice(-3).join(' | ')}`,
      );
    const reads = emulator.requests({ method: 'GET' }).length;
    const writes = emulator.requests({ method: 'POST', path: '/inventory/batch' }).length;
    const rateLimited = emulator.requests({ status: 429 }).length;
    const quota = emulator.writeQuotaUsed();
    const wrong = skus.filter(
      (sku, i) => emulator.store.inventoryBySku(sku).quantity !== Number(rows[i].split(',')[1]),
    );
    if (wrong.length > 0) throw new Error(`${label}: ${wrong.length} SKUs do not hold the file's values`);
    const summary = JSON.parse(run.stdout);
    const theory = expected[label];
    const requests = theory.reads + theory.writes;
    results.push({ label, reads, writes, quota, ms: run.ms });
    console.log(
      `${label.padEnd(20)} ${String(reads + writes).padStart(5)} requests (${reads} reads, ${writes} writes; theory ${requests}: ${theory.reads} + ${theory.writes})  ` +
        `${quota} quota units  ${fmt.s(run.ms)} wall (least ${fmt.s(leastMs(requests, BUCKET, DRAIN))} at ${DRAIN}/s; ` +
        `${fmt.s(leastMs(requests, DEFAULT_BUCKET, DEFAULT_DRAIN))} at the default ${DEFAULT_DRAIN}/s)  ${rateLimited} x 429  ` +
        `summary: ${summary.updated} updated, ${summary.unchanged} unchanged`,
    );
  }
  const [full, only] = results;
  console.log(
    `changed-only: ${fmt.x(only.quota / full.quota)} the quota (${only.quota} vs ${full.quota} units), ${fmt.x((only.reads + only.writes) / (full.reads + full.writes))} the requests, ${fmt.x(only.ms / full.ms)} the wall time`,
  );
} finally {
  await emulator.close();
}
