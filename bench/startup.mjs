// Start-up benchmark: each figure a ratio of medians against its reference, all measured in
// one run of interleaved rounds, so that a busy moment of the machine weighs on a figure and
// its reference alike. Prints its figures; not a timed test.
//
//   against `node -e 0`:
//     svc --version                  budget 1.3x  (issue 4)
//     svc orders list --help         budget 1.3x  (issue 35)
//   against a bare Node fetch of the same page that prints the same ids (bench/lib/bare-fetch.mjs):
//     svc orders list                budget 1.2x  (issue 35), with shared pacing on (the default) and off
//
// The emulator runs in another process (no rate limit: one request per run, many runs). Each
// figure also gets the spread of its rounds (each round's time over its reference's in that
// round: quartiles and extremes) and the ratio of CPU time (user + system, Linux), which the
// machine's load moves less than wall time.
//
//   node bench/startup.mjs                 41 rounds
//   BENCH_ROUNDS=81 node bench/startup.mjs
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { buildCliTree, cliEnv, fmt, machine, median, root, startEmulatorProcess } from './lib/harness.mjs';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 41);
const WARMUP = 3;

const svc = await buildCliTree('startup-cli');
const emulator = await startEmulatorProcess(svc, ['--no-rate-limit']);
const service = { SVC_API_KEY: emulator.keys.live, SVC_BASE_URL: emulator.url };
const env = cliEnv(service);
const unshared = cliEnv({ ...service, SVC_SHARED_PACING: '0' });
const bareFetch = join(root, 'bench', 'lib', 'bare-fetch.mjs');

const nodeBare = { label: 'node -e 0', args: ['-e', '0'], env };
const fetchBare = { label: 'node bare-fetch.mjs', args: [bareFetch], env };
const cases = [
  nodeBare,
  { label: 'svc --version', args: [svc, '--version'], env, reference: nodeBare, budget: 1.3 },
  {
    label: 'svc orders list --help',
    args: [svc, 'orders', 'list', '--help'],
    env,
    reference: nodeBare,
    budget: 1.3,
  },
  fetchBare,
  { label: 'svc orders list', args: [svc, 'orders', 'list'], env, reference: fetchBare, budget: 1.2 },
  {
    label: 'svc orders list, no sharing',
    args: [svc, 'orders', 'list'],
    env: unshared,
    reference: fetchBare,
    budget: 1.2,
  },
];

/** CPU time (user + system, ms) of this process's children that ended, where Linux tells it. */
function childrenCpuMs() {
  try {
    // Fields 16 and 17 of /proc/self/stat, after the command name (which may hold spaces).
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[13]) + Number(fields[14])) * 1000) / 100;
  } catch {
    return Number.NaN;
  }
}

/** One run: wall time from spawn to exit and CPU time, in ms, and its stdout; a failing run stops the bench. */
function time(c) {
  const cpuBefore = childrenCpuMs();
  const started = process.hrtime.bigint();
  const result = spawnSync(process.execPath, c.args, { env: c.env, stdio: ['ignore', 'pipe', 'pipe'] });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (result.status !== 0) {
    throw new Error(`node ${c.args.join(' ')} exited ${result.status}: ${String(result.stderr).trim()}`);
  }
  return { ms, cpuMs: childrenCpuMs() - cpuBefore, stdout: String(result.stdout) };
}

/** The `q` quantile (0 to 1) of some numbers. */
function quantile(values, q) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.round((sorted.length - 1) * q)];
}

const mean = (values) => values.reduce((sum, value) => sum + value, 0) / values.length;
const load = () =>
  loadavg()
    .map((value) => value.toFixed(1))
    .join(' ');

try {
  // The same page either way: the reference prints the ids, svc its table (ids first).
  const ids = time(fetchBare).stdout.trim().split('\n');
  const listed = time(cases[4]).stdout.trim().split('\n').slice(1);
  const listedIds = listed.map((line) => line.split('\t')[0]);
  if (ids.length !== 25 || listedIds.join(' ') !== ids.join(' ')) {
    throw new Error(`svc orders list and the bare fetch disagree: ${listedIds.length} and ${ids.length} ids`);
  }

  console.log(
    `startup: ${ROUNDS} interleaved rounds (after ${WARMUP} warm-up rounds); figures: ratio of median wall times`,
  );
  console.log(`machine: ${machine()}; load average ${load()} (1, 5, 15 min) at the start`);
  for (let round = 0; round < WARMUP; round++) for (const c of cases) time(c);
  const samples = new Map(cases.map((c) => [c, []]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const c of cases) samples.get(c).push(time(c));
  }

  let allMet = true;
  for (const c of cases) {
    const runs = samples.get(c);
    const wall = median(runs.map((run) => run.ms));
    const spread = `${fmt.ms(Math.min(...runs.map((run) => run.ms)))} to ${fmt.ms(Math.max(...runs.map((run) => run.ms)))}`;
    if (!c.reference) {
      console.log(`${c.label.padEnd(30)} median ${fmt.ms(wall).padStart(9)}  (${spread}; reference)`);
      continue;
    }
    const reference = samples.get(c.reference);
    const ratio = wall / median(reference.map((run) => run.ms));
    const paired = runs.map((run, index) => run.ms / reference[index].ms);
    const cpu = mean(runs.map((run) => run.cpuMs)) / mean(reference.map((run) => run.cpuMs));
    const met = ratio <= c.budget;
    allMet &&= met;
    console.log(
      `${c.label.padEnd(30)} median ${fmt.ms(wall).padStart(9)}  ${fmt.x(ratio)} of ${c.reference.label}, budget ${c.budget}x: ${met ? 'PASS' : 'FAIL'}` +
        `  (rounds: quartiles ${fmt.x(quantile(paired, 0.25))} to ${fmt.x(quantile(paired, 0.75))}, extremes ${fmt.x(quantile(paired, 0))} to ${fmt.x(quantile(paired, 1))}; CPU ${Number.isNaN(cpu) ? 'unknown' : fmt.x(cpu)}; ${spread})`,
    );
  }
  console.log(`load average ${load()} at the end`);
  console.log(`startup: ${allMet ? 'all budgets met' : 'a budget was MISSED'}`);
} finally {
  await emulator.stop();
}
process.exitCode = 0;
