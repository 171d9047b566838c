/** Runs bin/svc as a subprocess, the way a user or a CI script does. */
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

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
}

/** A fresh, empty config dir per test, so profiles never leak between tests. */
export function freshConfigDir(): string {
  return mkdtempSync(join(tmpdir(), 'svc-test-'));
}

/** Runs `svc args…` with a clean environment (no SVC_* leaking in from the caller). */
export function runSvc(args: string[], options: SvcRunOptions = {}): Promise<SvcResult> {
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
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 25_000);
    const { signalWhen, actWhen } = options;
    const poll = signalWhen
      ? setInterval(() => {
          if (!signalWhen.when()) return;
          clearInterval(poll);
          child.kill(signalWhen.signal);
        }, 10)
      : undefined;
    const actPoll = actWhen
      ? setInterval(() => {
          if (!actWhen.when()) return;
          clearInterval(actPoll);
          actWhen.act();
        }, 10)
      : undefined;
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      clearInterval(poll);
      clearInterval(actPoll);
      resolve({ code, signal, stdout, stderr });
    });
    child.stdin.end(options.stdin ?? '');
  });
}
