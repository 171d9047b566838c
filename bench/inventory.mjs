// Inventory benchmarks (issues 7 and 35). Prints its figures; not a timed test.
//  1. `svc inventory push FILE --dry-run` over a generated 1,000,000-row CSV: wall time at most
//     1.2x a bare csv-parse loop (`columns: true`) over the same file, interleaved, medians;
//     the CLI's peak RSS under 120 MB. CPU time (user + system) is printed beside, as a ratio
//     a busy machine moves less than the wall time's.
//  2. A push of 100,000 existing SKUs to an emulator in another process (--no-rate-limit):
//     rows per second, and the CLI's peak RSS at most 150 MB.
//  3. Pacing: 20,000 rows against an emulator with bucket 20 and drain 50/s (in this process,
//     so its request log can be read; the CLI is a subprocess): zero 429s, and from first
//     request to last answer at most 1.10x the minimum (requests - bucket) / drain.
//
//   node bench/inventory.mjs                 all three
//   node bench/inventory.mjs dry push pace   some of them
//   BENCH_ROUNDS=5 BENCH_ROWS=1000000 BENCH_PUSH_ROWS=100000 BENCH_PACE_ROWS=20000 node bench/inventory.mjs
//   BENCH_CHANNEL_DELAY=2000 node bench/inventory.mjs push     the emulator's default channel delay

import { createReadStream, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse';
import {
  benchAgainstEmulator,
  cell,
  cliEnv,
  fmt,
  loadEmulator,
  median,
  runMeasured,
  tmp,
  writeCsv,
} from './lib/harness.mjs';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const DRY_ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const PUSH_ROWS = Number(process.env.BENCH_PUSH_ROWS ?? 100_000);
const PACE_ROWS = Number(process.env.BENCH_PACE_ROWS ?? 20_000);
const BATCH = 100;
const CHANNEL_DELAY = process.env.BENCH_CHANNEL_DELAY ?? '0';
const BUCKET = 20;
const DRAIN = 50;
/** Seeded products have 3.7 variants on average; a little slack over rows / 3.7. */
const productsFor = (skus) => Math.ceil(skus / 3.5) + 100;

const wanted = process.argv.slice(2);
const runs = (name) => wanted.length === 0 || wanted.includes(name);
const verdicts = [];
const verdict = (label, met) => {
  verdicts.push({ label, met });
  return met ? 'PASS' : 'FAIL';
};

const { svc, seeded } = await benchAgainstEmulator(
  'inventory-cli',
  'inventory: push --dry-run against a csv-parse loop, a push to an emulator, and its pacing',
);

/** 1,000,000 unique SKUs with a quantity and a price. */
function* generatedRows(count) {
  for (let i = 1; i <= count; i++) {
    yield `BENCH-${String(i).padStart(7, '0')},${(i * 7919) % 5000},${(((i * 31) % 20000) / 100 + 1).toFixed(2)}`;
  }
}

async function dryRunBench() {
  const file = join(tmp, `inventory-${DRY_ROWS}.csv`);
  await writeCsv(file, 'sku,quantity,price', generatedRows(DRY_ROWS));
  const loop = join(tmp, 'csv-parse-loop.mjs');
  // The baseline: the same Node, csv-parse from node_modules, every record as an object.
  writeFileSync(
    loop,
    [
      "import { createReadStream } from 'node:fs';",
      `import { parse } from ${JSON.stringify(import.meta.resolve('csv-parse'))};`,
      'let rows = 0;',
      'for await (const _record of createReadStream(process.argv[2]).pipe(parse({ columns: true }))) rows++;',
      "process.stdout.write(String(rows) + '\\n');",
      '',
    ].join('\n'),
  );
  console.log(
    `\n-- dry run: svc inventory push FILE --dry-run over ${DRY_ROWS.toLocaleString('en-US')} rows vs a bare csv-parse loop (columns: true), ${ROUNDS} interleaved rounds`,
  );
  const cli = { ms: [], rss: [], cpu: [] };
  const bare = { ms: [], rss: [], cpu: [] };
  for (let round = 1; round <= ROUNDS; round++) {
    const base = await runMeasured([loop, file], cliEnv());
    if (base.code !== 0) throw new Error(`csv-parse loop failed: ${base.stderr}`);
    const run = await runMeasured([svc, 'inventory', 'push', file, '--dry-run'], cliEnv());
    if (run.code !== 0) throw new Error(`dry run failed (exit ${run.code}): ${run.stderr.trim()}`);
    bare.ms.push(base.ms);
    bare.rss.push(base.maxRssMb);
    bare.cpu.push(base.cpuSeconds);
    cli.ms.push(run.ms);
    cli.rss.push(run.maxRssMb);
    cli.cpu.push(run.cpuSeconds);
    console.log(
      `round ${round}: csv-parse loop ${fmt.s(base.ms)} (${fmt.mb(base.maxRssMb)})   svc --dry-run ${fmt.s(run.ms)} (${fmt.mb(run.maxRssMb)})`,
    );
  }
  const ratio = median(cli.ms) / median(bare.ms);
  const cpuRatio = median(cli.cpu) / median(bare.cpu);
  const peak = Math.max(...cli.rss);
  console.log(
    `dry run: median ${fmt.s(median(cli.ms))} vs ${fmt.s(median(bare.ms))} = ${fmt.x(ratio)}, budget 1.2x: ${verdict('dry-run time', ratio <= 1.2)}` +
      `  (CPU ${median(cli.cpu).toFixed(2)} s vs ${median(bare.cpu).toFixed(2)} s = ${fmt.x(cpuRatio)}; wall ratios of the rounds ${cli.ms.map((ms, i) => fmt.x(ms / bare.ms[i])).join(' ')})`,
  );
  console.log(
    `dry run: CLI peak RSS ${fmt.mb(peak)} (csv-parse loop ${fmt.mb(Math.max(...bare.rss))}), budget 120 MB: ${verdict('dry-run RSS', peak < 120)}`,
  );
}

/** Parses a CSV export into {sku, quantity, price} records. */
async function readExport(path) {
  const records = [];
  for await (const record of createReadStream(path).pipe(parse({ columns: true }))) records.push(record);
  return records;
}

/** The push rows: every SKU gets a quantity it does not have, so every row is an update. */
function changedRows(records, count) {
  return records
    .slice(0, count)
    .map((r, i) => `${cell(r.sku)},${(Number(r.quantity || 0) + 1 + (i % 7)) % 100000},${cell(r.price)}`);
}

async function pushBench() {
  const products = productsFor(PUSH_ROWS);
  console.log(
    `\n-- push: ${PUSH_ROWS.toLocaleString('en-US')} rows to an emulator in another process (--products ${products} --no-rate-limit --channel-delay ${CHANNEL_DELAY}), live key`,
  );
  // Channels answer at once: with a delay, the emulator's queue of channel calls grows and its
  // CPU, not the CLI's, sets the pace (see bench/RESULTS.md).
  const { emulator, env } = await seeded(
    ['--products', String(products), '--no-rate-limit', '--channel-delay', CHANNEL_DELAY],
    `${products.toLocaleString('en-US')} products`,
  );
  try {
    const exported = join(tmp, 'inventory-export.csv');
    const started = performance.now();
    const dump = await runMeasured([svc, 'inventory', 'export', '-o', 'csv'], env, { stdoutTo: exported });
    if (dump.code !== 0) throw new Error(`inventory export failed: ${dump.stderr.trim()}`);
    const records = await readExport(exported);
    if (records.length < PUSH_ROWS)
      throw new Error(`the emulator has only ${records.length} SKUs; ${PUSH_ROWS} needed`);
    const file = join(tmp, `inventory-push-${PUSH_ROWS}.csv`);
    await writeCsv(file, 'sku,quantity,price', changedRows(records, PUSH_ROWS));
    console.log(
      `exported ${records.length.toLocaleString('en-US')} SKUs with svc inventory export in ${fmt.s(performance.now() - started)}`,
    );
    const run = await runMeasured([svc, 'inventory', 'push', file, '--json'], env, { keepStdout: true });
    const summary = parseSummary(run.stdout);
    if (run.code !== 0) {
      console.log(`push: exit ${run.code}: ${run.stderr.trim().split('\n').slice(0, 3).join(' | ')}`);
      verdict('push', false);
      return;
    }
    const rate = PUSH_ROWS / (run.ms / 1000);
    console.log(
      `push: ${PUSH_ROWS.toLocaleString('en-US')} rows in ${fmt.s(run.ms)} = ${Math.round(rate).toLocaleString('en-US')} rows/s` +
        `${summary ? ` (${summary.requests} requests, ${summary.updated} updated, ${summary.unchanged} unchanged, ${summary.failed} failed)` : ''}`,
    );
    console.log(
      `push: CLI CPU ${run.cpuSeconds.toFixed(1)} s of the ${fmt.s(run.ms)} (the rest is waiting for the emulator)`,
    );
    console.log(
      `push: CLI peak RSS ${fmt.mb(run.maxRssMb)}, budget 150 MB: ${verdict('push RSS', run.maxRssMb <= 150)}`,
    );
  } finally {
    await emulator.stop();
  }
}

/** The --json summary the push prints, when it printed one. */
function parseSummary(stdout) {
  try {
    return JSON.parse(stdout);
  } catch {
    return undefined;
  }
}

async function pacingBench() {
  const { startEmulator } = await loadEmulator('inventory');
  const products = productsFor(PACE_ROWS);
  const emulator = await startEmulator({
    products,
    orders: 0,
    bucket: BUCKET,
    drainPerSecond: DRAIN,
    channelDelayMs: 200,
  });
  try {
    const rows = [];
    for (const product of emulator.store.products.values()) {
      for (const variant of product.variants) {
        if (rows.length === PACE_ROWS) break;
        rows.push(`${cell(variant.sku)},${((variant.quantity ?? 0) + 1) % 100000},${cell(variant.price)}`);
      }
    }
    if (rows.length < PACE_ROWS) throw new Error(`the emulator has only ${rows.length} SKUs`);
    const requests = Math.ceil(PACE_ROWS / BATCH);
    const minimumMs = ((requests - BUCKET) / DRAIN) * 1000;
    console.log(
      `\n-- pacing: ${PACE_ROWS.toLocaleString('en-US')} rows (${requests} requests of ${BATCH}) against bucket ${BUCKET}, drain ${DRAIN}/s; minimum (${requests} - ${BUCKET}) / ${DRAIN} = ${fmt.s(minimumMs)}`,
    );
    const file = join(tmp, `inventory-pace-${PACE_ROWS}.csv`);
    await writeCsv(file, 'sku,quantity,price', rows);
    const env = cliEnv({ SVC_API_KEY: emulator.keys.live, SVC_BASE_URL: emulator.url });
    const run = await runMeasured([svc, 'inventory', 'push', file, '--json'], env, { keepStdout: true });
    const log = emulator.requests({ path: '/inventory/batch' });
    const rateLimited = emulator.requests({ status: 429 }).length;
    if (run.code !== 0 || log.length === 0) {
      console.log(`pacing: exit ${run.code}: ${run.stderr.trim().split('\n').slice(0, 3).join(' | ')}`);
      verdict('pacing', false);
      return;
    }
    const elapsedMs = log[log.length - 1].atMs - log[0].atMs;
    const ratio = elapsedMs / minimumMs;
    console.log(
      `pacing: ${log.length} requests, first request to last answer ${fmt.s(elapsedMs)} = ${ratio.toFixed(3)}x the minimum, ${rateLimited} x 429; ` +
        `budget 1.10x and no 429: ${verdict('pacing', ratio <= 1.1 && rateLimited === 0)}  (CLI wall time ${fmt.s(run.ms)}, peak RSS ${fmt.mb(run.maxRssMb)})`,
    );
  } finally {
    await emulator.close();
  }
}

if (runs('dry')) await dryRunBench();
if (runs('push')) await pushBench();
if (runs('pace')) await pacingBench();
const missed = verdicts.filter((v) => !v.met).map((v) => v.label);
console.log(`\ninventory: ${missed.length === 0 ? 'all targets met' : `MISSED: ${missed.join(', ')}`}`);
process.exitCode = 0;
