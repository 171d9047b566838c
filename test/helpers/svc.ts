/**
 * Runs svc as a user or a CI script does: in-process through `main` (streams in memory, its
 * own environment) unless the run needs a real process (a signal, a reader that goes away, or
 * `process: true` for exit codes end to end), which spawns bin/svc.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { main } from '../../src/cli/main.js';
import { terminalColumns } from '../../src/output/io.js';
import { memoryIO } from './memory-io.js';
import { tempDir } from './temp-dir.js';

export const SVC_BIN = join(import.meta.dirname, '..', '..', 'bin', 'svc');

/** What one run printed and how it ended. */
export interface SvcResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Options of one run. */
export interface SvcRunOptions {
  env?: Record<string, string | undefined>;
  /** Bytes as given (a Buffer), or text written as UTF-8. */
  stdin?: string | Buffer;
  /** Send `signal` once `when()` holds (polled every 10 ms): waits on observable state, not time. */
  signalWhen?: { signal: NodeJS.Signals; when: () => boolean };
  /** Run `act` once `when()` holds (polled every 10 ms), e.g. to replace a file mid-run. */
  actWhen?: { when: () => boolean; act: () => void };
  /** Close the read end of stderr after its first output (a reader that went away). */
  closeStderrEarly?: boolean;
  timeoutMs?: number;
  /** Spawn bin/svc even when nothing else needs a process (what install, launcher and exit tests check). */
  process?: boolean;
}

/** How long a spawned run may take before it counts as hung and is killed (a busy machine is slow, not hung). */
export const HANG_MS = 100_000;

/** A fresh, empty config dir per test, so profiles never leak between tests. */
export function freshConfigDir(): string {
  return tempDir('svc-test-');
}

/** The environment of one run: the caller's without SVC_* and CI, no colour, a fresh config dir. */
function runEnv(options: SvcRunOptions): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (value !== undefined && !name.startsWith('SVC_') && name !== 'CI') env[name] = value;
  }
  env.NO_COLOR = '1';
  env.SVC_CONFIG_DIR ??= freshConfigDir();
  for (const [name, value] of Object.entries(options.env ?? {})) {
    if (value === undefined) delete env[name];
    else env[name] = value;
  }
  // The quota count lives in the user's state dir: a test's, beside its config dir, unless it names one.
  if (options.env?.XDG_STATE_HOME === undefined) env.XDG_STATE_HOME = join(env.SVC_CONFIG_DIR, 'state');
  return env;
}

/** Runs `svc args…` with a clean environment (no SVC_* leaking in from the caller). */
export function runSvc(args: string[], options: SvcRunOptions = {}): Promise<SvcResult> {
  const needsProcess = options.process || options.signalWhen || options.closeStderrEarly;
  return needsProcess ? spawnSvc(args, options) : runInProcess(args, options);
}

// Replaced at build time by esbuild; in-process runs print the package's own version.
(globalThis as { __SVC_VERSION__?: string }).__SVC_VERSION__ ??= (
  JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', 'package.json'), 'utf8')) as {
    version: string;
  }
).version;

/** Runs `act` once `when()` holds, polled every 10 ms (waits on observable state, not time); returns the stop. */
function whenever(condition: { when: () => boolean; act: () => void } | undefined): () => void {
  if (!condition) return () => {};
  const poll = setInterval(() => {
    if (!condition.when()) return;
    clearInterval(poll);
    condition.act();
  }, 10);
  return () => clearInterval(poll);
}

/** `main` in this process, with stdin, stdout and stderr in memory. */
async function runInProcess(args: string[], options: SvcRunOptions): Promise<SvcResult> {
  const env = runEnv(options);
  const io = { ...memoryIO(), columns: terminalColumns(env.COLUMNS, undefined) };
  const stdin = new PassThrough();
  stdin.end(options.stdin ?? '');
  const stopActing = whenever(options.actWhen);
  try {
    const code = await main([process.execPath, SVC_BIN, ...args], {
      io: { ...io, stdin },
      env,
    });
    return { code, signal: null, stdout: io.out(), stderr: io.err() };
  } finally {
    stopActing();
  }
}

/** bin/svc as a child process. */
function spawnSvc(args: string[], options: SvcRunOptions): Promise<SvcResult> {
  const env = runEnv(options);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [SVC_BIN, ...args], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
      if (options.closeStderrEarly) child.stderr.destroy();
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? HANG_MS);
    const { signalWhen } = options;
    const stopSignalling = whenever(
      signalWhen && { when: signalWhen.when, act: () => child.kill(signalWhen.signal) },
    );
    const stopActing = whenever(options.actWhen);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      stopSignalling();
      stopActing();
      resolve({ code, signal, stdout, stderr });
    });
    child.stdin.end(options.stdin ?? '');
  });
}
