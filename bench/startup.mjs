// Start-up benchmark: the median wall time of `svc --version` at most 1.3x that of
// `node -e 0`, and of `svc orders list --help` at most 1.5x, interleaved in one run so that a
// busy moment of the machine weighs on all three alike. Prints its figures; not a timed test.
//
//   node bench/startup.mjs                 21 rounds
//   BENCH_ROUNDS=41 node bench/startup.mjs
import { spawnSync } from 'node:child_process';
import { buildCliTree, cliEnv, fmt, machine, median } from './lib/harness.mjs';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 21);
const WARMUP = 2;

const svc = await buildCliTree('startup-cli');
const env = cliEnv();
const cases = [
  { label: 'node -e 0', args: ['-e', '0'] },
  { label: 'svc --version', args: [svc, '--version'], budget: 1.3 },
  { label: 'svc orders list --help', args: [svc, 'orders', 'list', '--help'], budget: 1.5 },
];

/** Wall time of one run, from spawn to exit, in ms; a failing run stops the bench. */
function time(args) {
  const started = process.hrtime.bigint();
  const result = spawnSync(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (result.status !== 0) {
    throw new Error(`node ${args.join(' ')} exited ${result.status}: ${String(result.stderr).trim()}`);
  }
  return ms;
}

console.log(`startup: ${ROUNDS} interleaved rounds (after ${WARMUP} warm-up rounds), median wall time`);
console.log(`machine: ${machine()}`);
for (let round = 0; round < WARMUP; round++) for (const c of cases) time(c.args);
const samples = cases.map(() => []);
for (let round = 0; round < ROUNDS; round++) {
  cases.forEach((c, index) => {
    samples[index].push(time(c.args));
  });
}
const baseline = median(samples[0]);
let allMet = true;
cases.forEach((c, index) => {
  const m = median(samples[index]);
  const sorted = [...samples[index]].sort((a, b) => a - b);
  const spread = `min ${fmt.ms(sorted[0])}, max ${fmt.ms(sorted[sorted.length - 1])}`;
  if (c.budget === undefined) {
    console.log(`${c.label.padEnd(26)} median ${fmt.ms(m).padStart(9)}  (${spread})`);
    return;
  }
  const ratio = m / baseline;
  const met = ratio <= c.budget;
  allMet &&= met;
  console.log(
    `${c.label.padEnd(26)} median ${fmt.ms(m).padStart(9)}  ${fmt.x(ratio)} of node -e 0, budget ${c.budget}x: ${met ? 'PASS' : 'FAIL'}  (${spread})`,
  );
});
console.log(`startup: ${allMet ? 'all budgets met' : 'a budget was MISSED'}`);
process.exitCode = 0;
