/** An in-process emulator on an ephemeral port, and the environment bin/svc needs to reach it. */
import { afterEach } from 'vitest';
import { type EmulatorOptions, type RunningEmulator, startEmulator } from '../../src/emulator/index.js';
import { freshConfigDir } from './svc.js';

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
