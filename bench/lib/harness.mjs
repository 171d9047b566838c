// Shared by bench/startup.mjs, bench/memory.mjs, bench/inventory.mjs and bench/changed-only.mjs (this folder is not
// run by bench/run.mjs). Like bench/pacing.mjs, everything is bundled into bench/tmp with
// esbuild from the TypeScript sources, so a concurrent `npm run build` emptying dist/ cannot
// break a run.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import {
  chmodSync,
  closeSync,
  copyFileSync,
  createWriteStream,
  mkdirSync,
  openSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { bundleCli } from '../../scripts/bundle.mjs';

/** The repository root. */
export const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** Scratch space for bundles and generated files (gitignored). */
export const tmp = join(root, 'bench', 'tmp');

const BANNER = {
  js: "import { createRequire as __svcCreateRequire } from 'node:module'; const require = __svcCreateRequire(import.meta.url);",
};

/**
 * Bundles the CLI exactly as scripts/build.mjs does, into bench/tmp/<name>/dist, next to a copy
 * of bin/ and a package.json, so the launcher (with its `--version` fast path) runs unchanged.
 * Returns the path of the copied bin/svc; run it with `node <path>`.
 */
export async function buildCliTree(name) {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const dir = join(tmp, name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(dir, 'bin'), { recursive: true });
  // The same bundle as scripts/build.mjs ships, into a folder of its own.
  await bundleCli(join(dir, 'dist'));
  writeFileSync(
    join(dir, 'package.json'),
    `${JSON.stringify({ name: 'svc', version: pkg.version, type: 'module' })}\n`,
  );
  const bin = join(dir, 'bin', 'svc');
  copyFileSync(join(root, 'bin', 'svc'), bin);
  // The launcher is CommonJS by bin/package.json's word.
  copyFileSync(join(root, 'bin', 'package.json'), join(dir, 'bin', 'package.json'));
  chmodSync(bin, 0o755);
  return bin;
}

/**
 * Bundles the in-process emulator (and any other named exports of the sources, e.g. ApiClient)
 * and imports it, so a bench needs no `npm run build` and a parallel build cannot break it.
 */
export async function loadEmulator(name, extra = '') {
  mkdirSync(tmp, { recursive: true });
  const outfile = join(tmp, `${name}-emulator.mjs`);
  await build({
    stdin: {
      contents: `export { startEmulator } from './src/emulator/index.ts';\n${extra}`,
      resolveDir: root,
      loader: 'ts',
    },
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    define: { __SVC_VERSION__: '"bench"' },
    banner: BANNER,
    logLevel: 'warning',
  });
  return import(pathToFileURL(outfile).href);
}

/** One line describing the machine, for the printed figures and RESULTS.md. */
export function machine() {
  const cpu = cpus()[0]?.model?.trim() ?? 'unknown cpu';
  return `${cpu} x${cpus().length} (nproc), ${(totalmem() / 2 ** 30).toFixed(1)} GB, node ${process.version}, ${new Date().toISOString().slice(0, 10)}`;
}

/** The median of some numbers. */
export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** An environment for a CLI run: the given variables, no colour, a config dir of its own. */
export function cliEnv(extra = {}) {
  const configDir = join(tmp, 'config');
  mkdirSync(configDir, { recursive: true });
  return { ...process.env, NO_COLOR: '1', CI: 'true', SVC_CONFIG_DIR: configDir, ...extra };
}

/**
 * Runs `node args…` under GNU time to get the peak RSS of that process (its own, not the
 * bench's). stdout is counted (lines and bytes) and kept only with `keepStdout` (for small
 * outputs), or goes straight to the file `stdoutTo`; stderr is kept for errors.
 * Resolves { code, ms, maxRssMb, cpuSeconds (user + system), lines, bytes, stdout, stderr }.
 */
export function runMeasured(args, env, { keepStdout = false, stdoutTo } = {}) {
  const timeFile = join(tmp, `time-${process.pid}.txt`);
  return new Promise((resolve, reject) => {
    const out = stdoutTo ? openSync(stdoutTo, 'w') : 'pipe';
    const started = performance.now();
    const child = spawn('/usr/bin/time', ['-o', timeFile, '-f', '%M %U %S', process.execPath, ...args], {
      env,
      stdio: ['ignore', out, 'pipe'],
    });
    if (stdoutTo) closeSync(out);
    let lines = 0;
    let bytes = 0;
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (chunk) => {
      bytes += chunk.length;
      for (let i = chunk.indexOf(10); i >= 0; i = chunk.indexOf(10, i + 1)) lines++;
      if (keepStdout) stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      if (stderr.length < 100_000) stderr += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => {
      const ms = performance.now() - started;
      let maxRssMb = Number.NaN;
      let cpuSeconds = Number.NaN;
      try {
        // After "Command exited with non-zero status N" when it failed: the last line is ours.
        const lines = readFileSync(timeFile, 'utf8').trim().split('\n');
        const [kb, user, system] = lines[lines.length - 1].split(' ').map(Number);
        maxRssMb = kb / 1024;
        cpuSeconds = user + system;
      } catch {
        // GNU time missing or killed: the figure stays NaN and the bench says so.
      }
      rmSync(timeFile, { force: true });
      resolve({ code, ms, maxRssMb, cpuSeconds, lines, bytes, stdout, stderr });
    });
  });
}

/**
 * Starts `svc emulator start --port 0 --json …` as a separate process and resolves
 * { url, keys, stop } once it printed its base URL.
 */
export function startEmulatorProcess(svc, flags, env = cliEnv()) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [svc, 'emulator', 'start', '--port', '0', '--json', ...flags], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    const fail = (why) => {
      child.kill('SIGKILL');
      reject(new Error(`emulator did not start: ${why} ${err.trim().split('\n')[0] ?? ''}`));
    };
    child.stderr.on('data', (chunk) => {
      err += chunk;
    });
    child.on('exit', (code) => fail(`exit ${code}`));
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const newline = out.indexOf('\n');
      if (newline < 0) return;
      child.removeAllListeners('exit');
      let info;
      try {
        info = JSON.parse(out.slice(0, newline));
      } catch {
        fail(`unexpected output ${JSON.stringify(out.slice(0, 200))}`);
        return;
      }
      const stop = () =>
        new Promise((done) => {
          if (child.exitCode !== null) return done();
          child.once('exit', () => done());
          child.kill('SIGTERM');
        });
      resolve({ url: info.base_url, keys: info.keys, stop, pid: child.pid });
    });
  });
}

/** Current and peak resident memory of a process in MB, and its CPU seconds so far, from /proc. */
export function processFigures(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN);
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name, which is in parentheses and may hold spaces.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return {
    rssMb: kb('VmRSS') / 1024,
    peakMb: kb('VmHWM') / 1024,
    cpuSeconds: (Number(fields[11]) + Number(fields[12])) / 100,
  };
}

/**
 * The start-up every bench against an emulator shares: a built CLI tree named `name`, the
 * bench's title and the machine line, and `seeded` to start an emulator in its own process
 * (the CLI's environment for it, and what seeding cost, printed).
 */
export async function benchAgainstEmulator(name, title) {
  const svc = await buildCliTree(name);
  console.log(title);
  console.log(`machine: ${machine()}`);
  const seeded = async (flags, what) => {
    const started = performance.now();
    const emulator = await startEmulatorProcess(svc, flags);
    const seconds = (performance.now() - started) / 1000;
    const figures = processFigures(emulator.pid);
    console.log(
      `emulator: ${what} seeded in ${seconds.toFixed(1)} s (CPU ${figures.cpuSeconds.toFixed(1)} s), RSS ${fmt.mb(figures.rssMb)}, peak ${fmt.mb(figures.peakMb)}`,
    );
    const env = cliEnv({ SVC_API_KEY: emulator.keys.live, SVC_BASE_URL: emulator.url });
    return { emulator, env, seconds, ...figures };
  };
  return { svc, seeded };
}

/** Writes rows to a CSV file, minding backpressure; resolves when the file is closed. */
export async function writeCsv(path, header, rows) {
  const out = createWriteStream(path);
  out.write(`${header}\n`);
  let chunk = '';
  for (const row of rows) {
    chunk += `${row}\n`;
    if (chunk.length > 1 << 16) {
      if (!out.write(chunk)) await once(out, 'drain');
      chunk = '';
    }
  }
  out.end(chunk);
  await once(out, 'finish');
}

/**
 * The push file of process `index` in a pacing bench: its own `perProcess` SKUs of `skus`, with
 * quantities new to trial `trial` (so every row is a real change), written as `name-index.csv`.
 */
export function pushFileOf(skus, { name, index, trial, perProcess }) {
  const rows = skus.slice(index * perProcess, (index + 1) * perProcess);
  const path = join(tmp, `${name}-${index}.csv`);
  writeFileSync(
    path,
    `sku,quantity\n${rows.map((sku, i) => `${sku},${(i + trial * 7) % 1000}`).join('\n')}\n`,
  );
  return path;
}

/** Runs `node ...args` to its end; resolves with its exit code and its stderr. */
export function runForStderr(args, env) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

/** A CSV cell, quoted when it must be. */
export function cell(value) {
  const text = String(value ?? '');
  return /[",\r\n]/.test(text) || text !== text.trim() ? `"${text.replaceAll('"', '""')}"` : text;
}

/** Figures formatted alike: '12.3 MB', '1.23 s'. */
export const fmt = {
  mb: (value) => `${value.toFixed(1)} MB`,
  s: (ms) => `${(ms / 1000).toFixed(2)} s`,
  ms: (ms) => `${ms.toFixed(1)} ms`,
  x: (ratio) => `${ratio.toFixed(3)}x`,
};
