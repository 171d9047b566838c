/** An in-process emulator on an ephemeral port, and the environment bin/svc needs to reach it. */
import { type EmulatorOptions, type RunningEmulator, startEmulator } from '../../src/emulator/index.js';
import { freshConfigDir } from './svc.js';

/** Starts an emulator for one test file or test. */
export function emulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  return startEmulator({ port: 0, ...options });
}

/** SVC_BASE_URL, SVC_API_KEY (live unless named) and a fresh SVC_CONFIG_DIR. */
export function envFor(
  running: RunningEmulator,
  key: keyof RunningEmulator['keys'] = 'live',
): Record<string, string> {
  return { SVC_BASE_URL: running.url, SVC_API_KEY: running.keys[key], SVC_CONFIG_DIR: freshConfigDir() };
}
