// Emulator at scale: `svc emulator start --orders N --no-rate-limit` in its own
// process, crawled with `svc orders list --all -o ndjson`, at 10,000, 100,000 and 1,000,000
// orders. Target: the emulator's CPU per page at 1,000,000 orders at most 1.5x its CPU per
// page at 10,000 (a page costs a search and the page, not a pass over the store). Also prints
// the total crawl time, the time to seed, and the emulator's RSS at each size, from which
// the memory per order follows. Prints its figures; not a timed test.
//
//   node bench/emulator-scale.mjs
//   BENCH_SIZES=10000,100000 node bench/emulator-scale.mjs
import { readFileSync } from 'node:fs';
import { buildCliTree, cliEnv, fmt, machine, runMeasured, startEmulatorProcess } from './lib/harness.mjs';

const SIZES = (process.env.BENCH_SIZES ?? '10000,100000,1000000').split(',').map(Number);
// Small stores are crawled several times so that each size is measured over about 1,000 pages
// at least (the kernel counts CPU in 10 ms ticks).
const MIN_PAGES = 1_000;
const PAGE_SIZE = 100;
const BUDGET_RATIO = 1.5;

/** CPU seconds (user + system) the process has used so far, from /proc. */
function cpuSeconds(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name, which is in parentheses and may hold spaces.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** Current and peak resident memory of the process in MB, from /proc. */
function memory(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN);
  return { rssMb: kb('VmRSS') / 1024, peakMb: kb('VmHWM') / 1024 };
}

const svc = await buildCliTree('emulator-scale-cli');
console.log(
  `emulator-scale: svc orders list --all -o ndjson against svc emulator start --orders N --no-rate-limit (another process); target CPU per page at ${SIZES.at(-1).toLocaleString('en-US')} <= ${BUDGET_RATIO}x at ${SIZES[0].toLocaleString('en-US')}`,
);
console.log(`machine: ${machine()}`);
const rows = [];
let complete = true;
for (const orders of SIZES) {
  const started = performance.now();
  const emulator = await startEmulatorProcess(svc, ['--orders', String(orders), '--no-rate-limit']);
  const seedMs = performance.now() - started;
  const seeded = memory(emulator.pid);
  const env = cliEnv({ SVC_API_KEY: emulator.keys.live, SVC_BASE_URL: emulator.url });
  const pagesPerCrawl = Math.max(1, Math.ceil(orders / PAGE_SIZE));
  const crawls = Math.max(1, Math.ceil(MIN_PAGES / pagesPerCrawl));
  let cpu = 0;
  let crawlMs = 0;
  try {
    for (let crawl = 0; crawl < crawls; crawl++) {
      const before = cpuSeconds(emulator.pid);
      const run = await runMeasured([svc, 'orders', 'list', '--all', '-o', 'ndjson'], env);
      cpu += cpuSeconds(emulator.pid) - before;
      crawlMs += run.ms;
      if (run.code !== 0 || run.lines !== orders) {
        complete = false;
        console.log(
          `${orders}: exit ${run.code}, ${run.lines} lines: ${run.stderr.trim().split('\n')[0] ?? ''}`,
        );
      }
    }
  } finally {
    const after = memory(emulator.pid);
    await emulator.stop();
    const pages = pagesPerCrawl * crawls;
    const row = {
      orders,
      seedMs,
      crawlMs: crawlMs / crawls,
      cpuPerPageMs: (cpu * 1000) / pages,
      pages,
      rssMb: seeded.rssMb,
      peakMb: after.peakMb,
    };
    rows.push(row);
    console.log(
      `${orders.toLocaleString('en-US')} orders: seeded in ${fmt.s(row.seedMs)}, RSS ${fmt.mb(row.rssMb)}; crawl ${fmt.s(row.crawlMs)}` +
        ` (${crawls} x ${pagesPerCrawl} pages); emulator CPU ${fmt.ms(row.cpuPerPageMs)} per page; peak RSS ${fmt.mb(row.peakMb)}`,
    );
  }
}
const small = rows[0];
const large = rows.at(-1);
const ratio = large.cpuPerPageMs / small.cpuPerPageMs;
const perOrder = ((large.rssMb - small.rssMb) * 2 ** 20) / (large.orders - small.orders);
console.log(
  `memory per order (RSS after seeding, ${small.orders} to ${large.orders}): ${Math.round(perOrder)} bytes`,
);
console.log(
  `emulator-scale: CPU per page ${fmt.ms(large.cpuPerPageMs)} at ${large.orders.toLocaleString('en-US')} vs ${fmt.ms(small.cpuPerPageMs)} at ${small.orders.toLocaleString('en-US')} = ${fmt.x(ratio)}, budget ${BUDGET_RATIO}x: ${complete && ratio <= BUDGET_RATIO ? 'PASS' : 'FAIL'}`,
);
process.exitCode = 0;
