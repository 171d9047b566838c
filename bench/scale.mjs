// Cost against the size of the work (issue 44): a push and a crawl at 100,000, 300,000 and
// 1,000,000 items, the CLI's peak RSS (GNU time) and items per second at each, and the ratio
// of the largest to the smallest. Targets: a push's peak at most 150 MB and a crawl's at most
// 120 MB at every size; items per second at the largest within 1.1x of the smallest. Also the
// emulator that holds them: `svc emulator start --products N` seeds in at most 60 s and stays
// under 2 GB at about a million SKUs. Prints its figures; not a timed test.
//
// Sizes run interleaved (each round runs every size once), medians of the rounds; peaks are
// the worst round's. The emulators run in their own processes, one at a time.
//
//   node bench/scale.mjs                    push, crawl and emulator at 100,000 / 300,000 / 1,000,000
//   node bench/scale.mjs push crawl         some of them
//   node bench/scale.mjs changed-only       only `inventory export` and `push --changed-only` of
//                                          the export at the largest size (nothing sent: the
//                                          store's growth per changed SKU stays out of it)
//   BENCH_SCALE=quick node bench/scale.mjs  10,000 and 30,000 (the default of `npm run bench`;
//                                          BENCH_SCALE=full npm run bench for the full sizes)
//   BENCH_SIZES=100000,1000000 BENCH_ROUNDS=3 node bench/scale.mjs
//   BENCH_EXTRA_CRAWLS=0 node bench/scale.mjs crawl   without `svc api --paginate` and
//                                          `--since-last` over the whole store (two more crawls
//                                          of the largest size)
import { createReadStream } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import {
  benchAgainstEmulator,
  fmt,
  median,
  processFigures,
  runMeasured,
  tmp,
  writeCsv,
} from './lib/harness.mjs';

const QUICK = process.env.BENCH_SCALE === 'quick';
const SIZES = (process.env.BENCH_SIZES ?? (QUICK ? '10000,30000' : '100000,300000,1000000'))
  .split(',')
  .map(Number);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? (QUICK ? 1 : 2));
const PUSH_BUDGET_MB = 150;
const CRAWL_BUDGET_MB = 120;
const RATE_RATIO = 1.1;
const SEED_BUDGET_S = 60;
const EMULATOR_BUDGET_MB = 2048;
/** Seeded products have about 3.7 variants; a little slack over skus / 3.7. */
const productsFor = (skus) => Math.ceil(skus / 3.6) + 100;
const LARGEST = Math.max(...SIZES);

const wanted = process.argv.slice(2);
const runs = (name) => wanted.length === 0 || wanted.includes(name);
const count = (n) => n.toLocaleString('en-US');
fmt.us = (value) => `${value.toFixed(1)} us`;

const bench = await benchAgainstEmulator(
  'scale-cli',
  `scale: sizes ${SIZES.map(count).join(', ')}, ${ROUNDS} round(s) interleaved${QUICK ? ' (BENCH_SCALE=quick)' : ''}`,
);
const { svc } = bench;
/** Starts an emulator with no rate limit and answers from the channels at once. */
const seeded = (flags, what) => bench.seeded([...flags, '--no-rate-limit', '--channel-delay', '0'], what);

/** Rows, rate and peak of each size over the rounds, and the verdicts. */
function summarize(label, bySize, budgetMb, unit) {
  const rows = SIZES.map((size) => ({
    size,
    rate: median(bySize.get(size).map((run) => run.rate)),
    peak: Math.max(...bySize.get(size).map((run) => run.peak)),
  }));
  for (const row of rows)
    console.log(
      `${label} ${count(row.size)}: ${count(Math.round(row.rate))} ${unit}/s (median), peak RSS ${fmt.mb(row.peak)} (worst)`,
    );
  const small = rows[0];
  const large = rows.at(-1);
  const peakMet = rows.every((row) => row.peak <= budgetMb);
  const rateRatio = small.rate / large.rate;
  console.log(
    `${label}: peak ${fmt.mb(large.peak)} at ${count(large.size)} vs ${fmt.mb(small.peak)} at ${count(small.size)} = ${fmt.x(large.peak / small.peak)}, budget ${budgetMb} MB: ${peakMet ? 'PASS' : 'FAIL'}`,
  );
  console.log(
    `${label}: ${unit}/s at ${count(small.size)} over ${unit}/s at ${count(large.size)} = ${fmt.x(rateRatio)}, budget ${RATE_RATIO}x: ${rateRatio <= RATE_RATIO ? 'PASS' : 'FAIL'}`,
  );
}

async function pushBench() {
  const products = productsFor(LARGEST);
  console.log(`\n-- push: svc inventory push FILE --report OUT --json, every row a change`);
  const { emulator, env, seconds, rssMb } = await seeded(
    ['--products', String(products), '--write-quota', '100000000'],
    `${count(products)} products`,
  );
  try {
    const exported = join(tmp, 'scale-export.csv');
    const dump = await runMeasured([svc, 'inventory', 'export', '-o', 'csv'], env, { stdoutTo: exported });
    if (dump.code !== 0)
      throw new Error(`inventory export failed (exit ${dump.code}): ${dump.stderr.trim().slice(-300)}`);
    const skus = [];
    const lines = createInterface({ input: createReadStream(exported), crlfDelay: Number.POSITIVE_INFINITY });
    let header = true;
    for await (const line of lines) {
      // The SKU is the first column (seeded SKUs hold no comma or quote).
      if (header) header = false;
      else skus.push(line.slice(0, line.indexOf(',')));
    }
    console.log(
      `inventory export: ${count(skus.length)} SKUs in ${fmt.s(dump.ms)} = ${count(Math.round(skus.length / (dump.ms / 1000)))} SKUs/s, CLI CPU ${dump.cpuSeconds.toFixed(1)} s, peak RSS ${fmt.mb(dump.maxRssMb)} (budget ${CRAWL_BUDGET_MB} MB: ${dump.maxRssMb <= CRAWL_BUDGET_MB ? 'PASS' : 'FAIL'}), load average ${loadavg()[0].toFixed(1)}`,
    );
    if (skus.length < LARGEST)
      throw new Error(`the emulator has only ${skus.length} SKUs; ${LARGEST} needed`);
    const bySize = new Map(SIZES.map((size) => [size, []]));
    for (let round = 1; round <= ROUNDS; round++) {
      for (const size of SIZES) {
        // Each round sets new quantities, so that every row is a change.
        const file = join(tmp, `scale-push-${size}.csv`);
        await writeCsv(
          file,
          'sku,quantity',
          (function* () {
            for (let i = 0; i < size; i++) yield `${skus[i]},${(round * 7 + i) % 100000}`;
          })(),
        );
        const run = await runMeasured(
          [svc, 'inventory', 'push', file, '--json', '--report', join(tmp, 'scale-report.csv')],
          env,
          { keepStdout: true },
        );
        if (run.code !== 0)
          throw new Error(`push of ${size} rows: exit ${run.code}: ${run.stderr.trim().slice(-400)}`);
        await checkReport(join(tmp, 'scale-report.csv'), skus, size);
        const rate = size / (run.ms / 1000);
        bySize.get(size).push({ rate, peak: run.maxRssMb });
        console.log(
          `round ${round}: push ${count(size)} rows in ${fmt.s(run.ms)} = ${count(Math.round(rate))} rows/s, CLI CPU ${run.cpuSeconds.toFixed(1)} s (${fmt.us((run.cpuSeconds * 1e6) / size)} a row), peak RSS ${fmt.mb(run.maxRssMb)}, load average ${loadavg()[0].toFixed(1)}`,
        );
      }
    }
    summarize('push', bySize, PUSH_BUDGET_MB, 'rows');
    // The largest file again with --changed-only: the store holds every row of it now, so the
    // run is the live read of every SKU and the exact comparison, and sends nothing.
    const again = await runMeasured(
      [svc, 'inventory', 'push', join(tmp, `scale-push-${LARGEST}.csv`), '--changed-only', '--json'],
      env,
      { keepStdout: true },
    );
    const unchanged = again.code === 0 ? JSON.parse(again.stdout).unchanged : undefined;
    const exact = unchanged === LARGEST;
    console.log(
      `push --changed-only of the ${count(LARGEST)} rows just pushed: exit ${again.code}, ${count(unchanged ?? 0)} unchanged (${exact ? 'every row' : 'NOT every row'}) in ${fmt.s(again.ms)}, CLI CPU ${again.cpuSeconds.toFixed(1)} s, peak RSS ${fmt.mb(again.maxRssMb)}, budget ${PUSH_BUDGET_MB} MB: ${exact && again.maxRssMb <= PUSH_BUDGET_MB ? 'PASS' : 'FAIL'}, load average ${loadavg()[0].toFixed(1)}`,
    );
    const after = processFigures(emulator.pid);
    console.log(
      `emulator after the pushes: RSS ${fmt.mb(after.rssMb)} (${fmt.mb(rssMb)} after seeding in ${seconds.toFixed(1)} s), peak ${fmt.mb(after.peakMb)}`,
    );
  } finally {
    await emulator.stop();
  }
}

/**
 * The push's report holds every row once, in input order, each applied: what the test suite
 * checks at 20,000 rows, here at every size of the bench (rows a smaller size of the round set
 * already are unchanged).
 */
const SETTLED = new Set(['updated', 'unchanged']);
async function checkReport(report, skus, size) {
  let index = -1;
  let wrong = 0;
  for await (const text of createInterface({
    input: createReadStream(report),
    crlfDelay: Number.POSITIVE_INFINITY,
  })) {
    if (index === -1) {
      if (text !== 'line,key,status,code,message') throw new Error(`report header: ${text}`);
    } else {
      const [line, key, status] = text.split(',');
      if (line !== String(index + 2) || key !== skus[index] || !SETTLED.has(status)) wrong++;
    }
    index++;
  }
  if (index !== size || wrong > 0)
    throw new Error(`report of the ${size}-row push: ${index} rows, ${wrong} out of order or not applied`);
}

/**
 * `inventory export` of about LARGEST SKUs, then `push --changed-only` of that very file: the
 * whole live read and the exact comparison of every row, nothing sent. Needs no push before it,
 * so the emulator does not grow by what the pushes store (some 2 KB a changed SKU).
 */
async function changedOnlyBench() {
  const products = productsFor(LARGEST);
  console.log(`\n-- changed-only: svc inventory export, then svc inventory push EXPORT --changed-only`);
  const { emulator, env } = await seeded(['--products', String(products)], `${count(products)} products`);
  console.log(`load average after seeding ${loadavg()[0].toFixed(1)}`);
  try {
    const exported = join(tmp, 'scale-export.csv');
    const dump = await runMeasured([svc, 'inventory', 'export', '-o', 'csv'], env, { stdoutTo: exported });
    if (dump.code !== 0)
      throw new Error(`inventory export failed (exit ${dump.code}): ${dump.stderr.trim().slice(-300)}`);
    let skus = -1; // the header is no SKU
    for await (const chunk of createReadStream(exported))
      for (let at = chunk.indexOf(10); at >= 0; at = chunk.indexOf(10, at + 1)) skus++;
    console.log(
      `inventory export: ${count(skus)} SKUs in ${fmt.s(dump.ms)} = ${count(Math.round(skus / (dump.ms / 1000)))} SKUs/s, CLI CPU ${dump.cpuSeconds.toFixed(1)} s, peak RSS ${fmt.mb(dump.maxRssMb)} (budget ${CRAWL_BUDGET_MB} MB: ${dump.maxRssMb <= CRAWL_BUDGET_MB ? 'PASS' : 'FAIL'}), load average ${loadavg()[0].toFixed(1)}`,
    );
    const again = await runMeasured([svc, 'inventory', 'push', exported, '--changed-only', '--json'], env, {
      keepStdout: true,
    });
    const unchanged = again.code === 0 ? JSON.parse(again.stdout).unchanged : undefined;
    const exact = unchanged === skus;
    console.log(
      `push --changed-only of the ${count(skus)} rows exported: exit ${again.code}, ${count(unchanged ?? 0)} unchanged (${exact ? 'every row' : 'NOT every row'}) in ${fmt.s(again.ms)}, CLI CPU ${again.cpuSeconds.toFixed(1)} s, peak RSS ${fmt.mb(again.maxRssMb)}, budget ${PUSH_BUDGET_MB} MB: ${exact && again.maxRssMb <= PUSH_BUDGET_MB ? 'PASS' : 'FAIL'}, load average ${loadavg()[0].toFixed(1)}`,
    );
  } finally {
    await emulator.stop();
  }
}

async function crawlBench() {
  console.log(
    `\n-- crawl: svc orders list --limit N -o ndjson; at the largest also svc api --paginate and --since-last`,
  );
  const { emulator, env } = await seeded(['--orders', String(LARGEST)], `${count(LARGEST)} orders`);
  try {
    const bySize = new Map(SIZES.map((size) => [size, []]));
    for (let round = 1; round <= ROUNDS; round++) {
      for (const size of SIZES) {
        const run = await runMeasured([svc, 'orders', 'list', '--limit', String(size), '-o', 'ndjson'], env);
        if (run.code !== 0 || run.lines !== size)
          throw new Error(
            `crawl of ${size}: exit ${run.code}, ${run.lines} lines: ${run.stderr.trim().slice(-300)}`,
          );
        const rate = size / (run.ms / 1000);
        bySize.get(size).push({ rate, peak: run.maxRssMb });
        console.log(
          `round ${round}: orders list ${count(size)} in ${fmt.s(run.ms)} = ${count(Math.round(rate))} items/s, CLI CPU ${run.cpuSeconds.toFixed(1)} s (${fmt.us((run.cpuSeconds * 1e6) / size)} an item), peak RSS ${fmt.mb(run.maxRssMb)}, load average ${loadavg()[0].toFixed(1)}`,
        );
      }
    }
    summarize('crawl', bySize, CRAWL_BUDGET_MB, 'items');
    if (process.env.BENCH_EXTRA_CRAWLS === '0') return;
    for (const [label, args] of [
      ['svc api GET /orders --paginate -o ndjson', ['api', 'GET', '/orders', '--paginate', '-o', 'ndjson']],
      [
        'svc orders list --since-last MARK -o ndjson',
        // A mark of its own: one left by an earlier run names another store (exit 2).
        ['orders', 'list', '--since-last', `scale-${process.pid}`, '-o', 'ndjson'],
      ],
    ]) {
      const run = await runMeasured([svc, ...args], env);
      const met = run.code === 0 && run.lines === LARGEST && run.maxRssMb <= CRAWL_BUDGET_MB;
      console.log(
        `${label}: exit ${run.code}, ${count(run.lines)} orders in ${fmt.s(run.ms)}, CLI CPU ${run.cpuSeconds.toFixed(1)} s, peak RSS ${fmt.mb(run.maxRssMb)}, budget ${CRAWL_BUDGET_MB} MB: ${met ? 'PASS' : 'FAIL'}, load average ${loadavg()[0].toFixed(1)}`,
      );
    }
  } finally {
    await emulator.stop();
  }
}

async function emulatorBench() {
  // About a million SKUs; how long the first pages take once the seeded work ends (a minute on).
  const products = QUICK ? 27_000 : 270_000;
  console.log(`\n-- emulator: svc emulator start --products ${count(products)}`);
  const { emulator, env, seconds, rssMb, cpuSeconds } = await seeded(
    ['--products', String(products)],
    `${count(products)} products`,
  );
  // Seeding runs on one thread: its CPU time is its wall time on 2 idle cores; on a shared
  // machine the wall time is the others' load (printed with it).
  const seedSeconds = Math.min(seconds, cpuSeconds);
  try {
    const page = () => runMeasured([svc, 'products', 'list', '--limit', '100', '-o', 'ndjson'], env);
    const first = await page();
    // Seeded operations still under way end a minute after seeding, all in the next request.
    if (!QUICK) await new Promise((resolve) => setTimeout(resolve, 61_000));
    const afterWork = await page();
    const again = await page();
    const figures = processFigures(emulator.pid);
    const met = seedSeconds <= SEED_BUDGET_S && figures.peakMb <= EMULATOR_BUDGET_MB;
    console.log(
      `emulator: a page of 100 products ${fmt.s(first.ms)}; the first after the seeded work ends ${fmt.s(afterWork.ms)}, the next ${fmt.s(again.ms)}`,
    );
    console.log(
      `emulator: seeded in ${seconds.toFixed(1)} s (CPU ${cpuSeconds.toFixed(1)} s, load average ${loadavg()[0].toFixed(1)}), RSS ${fmt.mb(rssMb)}, peak ${fmt.mb(figures.peakMb)}; budgets ${SEED_BUDGET_S} s and ${EMULATOR_BUDGET_MB} MB: ${met ? 'PASS' : 'FAIL'}`,
    );
  } finally {
    await emulator.stop();
  }
}

if (runs('emulator')) await emulatorBench();
if (runs('push')) await pushBench();
if (runs('crawl')) await crawlBench();
if (wanted.includes('changed-only')) await changedOnlyBench();
process.exitCode = 0;
