// Memory benchmark: `svc api GET /orders --paginate -o ndjson` over 20,000 orders,
// the emulator in another process with no rate limit: peak RSS of the CLI process at most
// 120 MB (measured by GNU time, `%M`), and items per second. stdout goes to a counting sink:
// the bench counts lines and bytes and keeps nothing. Prints its figures; not a timed test.
//
//   node bench/memory.mjs
//   BENCH_ORDERS=50000 BENCH_TRIALS=3 node bench/memory.mjs
import { benchAgainstEmulator, fmt, median, runMeasured } from './lib/harness.mjs';

const ORDERS = Number(process.env.BENCH_ORDERS ?? 20_000);
const TRIALS = Number(process.env.BENCH_TRIALS ?? 2);
const BUDGET_MB = 120;

const { svc, seeded } = await benchAgainstEmulator(
  'memory-cli',
  `memory: svc api GET /orders --paginate -o ndjson over ${ORDERS.toLocaleString('en-US')} orders, emulator in another process (--no-rate-limit); target peak RSS <= ${BUDGET_MB} MB`,
);
const { emulator, env } = await seeded(
  ['--orders', String(ORDERS), '--no-rate-limit'],
  `${ORDERS.toLocaleString('en-US')} orders`,
);
const peaks = [];
let complete = true;
try {
  for (let trial = 1; trial <= TRIALS; trial++) {
    const run = await runMeasured([svc, 'api', 'GET', '/orders', '--paginate', '-o', 'ndjson'], env);
    if (run.code !== 0 || run.lines !== ORDERS) {
      complete = false;
      console.log(
        `trial ${trial}: exit ${run.code}, ${run.lines} lines (expected ${ORDERS}): ${run.stderr.trim().split('\n')[0] ?? ''}`,
      );
      continue;
    }
    peaks.push(run.maxRssMb);
    const rate = run.lines / (run.ms / 1000);
    console.log(
      `trial ${trial}: ${run.lines.toLocaleString('en-US')} orders (${fmt.mb(run.bytes / 2 ** 20)} of ndjson) in ${fmt.s(run.ms)}` +
        `  ${Math.round(rate).toLocaleString('en-US')} items/s  peak RSS ${fmt.mb(run.maxRssMb)}  (CLI CPU ${run.cpuSeconds.toFixed(1)} s)`,
    );
  }
} finally {
  await emulator.stop();
}
const worst = Math.max(...peaks);
const met = complete && peaks.length > 0 && worst <= BUDGET_MB;
console.log(
  `memory: worst peak RSS ${fmt.mb(worst)} (median ${fmt.mb(median(peaks))}), budget ${BUDGET_MB} MB: ${met ? 'PASS' : 'FAIL'}`,
);
process.exitCode = 0;
