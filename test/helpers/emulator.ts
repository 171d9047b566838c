/** An in-process emulator on an ephemeral port, and the environment bin/svc needs to reach it. */
import { spawn } from 'node:child_process';
import { afterEach } from 'vitest';
import { type EmulatorOptions, type RunningEmulator, startEmulator } from '../../src/emulator/index.js';
import { freshConfigDir, SVC_BIN } from './svc.js';

/** Starts an emulator for one test file or test. */
export function emulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  return startEmulator({ port: 0, ...options });
}

/** A starter of emulators that each test owns: whatever a test started is closed after it. */
export function emulatorPerTest(
  defaults: EmulatorOptions = {},
): (options?: EmulatorOptions) => Promise<RunningEmulator> {
  const running: RunningEmulator[] = [];
  afterEach(async () => {
    await Promise.all(running.splice(0).map((emu) => emu.close()));
  });
  return async (options = {}) => {
    const emu = await emulator({ ...defaults, ...options });
    running.push(emu);
    return emu;
  };
}

/** SVC_BASE_URL, SVC_API_KEY (live unless named) and a fresh SVC_CONFIG_DIR. */
export function envFor(
  running: RunningEmulator,
  key: keyof RunningEmulator['keys'] = 'live',
): Record<string, string> {
  return { SVC_BASE_URL: running.url, SVC_API_KEY: running.keys[key], SVC_CONFIG_DIR: freshConfigDir() };
}

/** An emulator running as `bin/svc emulator start` in its own process. */
export interface EmulatorProcess {
  url: string;
  keys: RunningEmulator['keys'];
  /** With --tls: the CA file it wrote. */
  caFile?: string;
  /** Send a signal and resolve with how the process ended and what it wrote to stderr. */
  stop(signal?: NodeJS.Signals): Promise<{ code: number | null; stderr: string }>;
}

/**
 * Starts `svc emulator start --port 0 --json …` and resolves once it printed its base URL;
 * rejects with its stderr when it exits first (a refused start) or after `timeoutMs`.
 */
export function startEmulatorProcess(args: string[], timeoutMs = 60_000): Promise<EmulatorProcess> {
  const child = spawn(process.execPath, [SVC_BIN, 'emulator', 'start', '--port', '0', '--json', ...args], {
    env: { ...process.env, NO_COLOR: '1', SVC_CONFIG_DIR: freshConfigDir() },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const exited = new Promise<{ code: number | null; stderr: string }>((resolve) =>
    child.on('close', (code) => resolve({ code, stderr })),
  );
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the emulator did not start within ${timeoutMs} ms: ${stderr}`));
    }, timeoutMs);
    void exited.then(({ code }) => {
      clearTimeout(timer);
      reject(
        Object.assign(new Error(`the emulator exited with ${code}: ${stderr.trim()}`), { code, stderr }),
      );
    });
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      const newline = stdout.indexOf('\n');
      if (newline < 0) return;
      clearTimeout(timer);
      const info = JSON.parse(stdout.slice(0, newline)) as {
        base_url: string;
        keys: RunningEmulator['keys'];
        ca_file?: string;
      };
      resolve({
        url: info.base_url,
        keys: info.keys,
        caFile: info.ca_file,
        stop: (signal = 'SIGTERM') => {
          child.kill(signal);
          return exited;
        },
      });
    });
  });
}
