/**
 * Shared helpers of the emulator tests that are not HTTP (that is test/helpers/service-api.ts):
 * a started emulator on a manual clock, and the keyset order of a list.
 */
import {
  createManualClock,
  type EmulatorOptions,
  type ManualClock,
  type RunningEmulator,
  startEmulator,
} from '../../src/emulator/index.js';

/** A running emulator and the clock that drives it. */
export interface TestEmulator {
  emulator: RunningEmulator;
  clock: ManualClock;
}

/** Start an emulator on an ephemeral port with a manual clock. */
export async function startTestEmulator(options: EmulatorOptions = {}): Promise<TestEmulator> {
  const clock = createManualClock();
  const emulator = await startEmulator({ port: 0, clock, ...options });
  return { emulator, clock };
}

/** True when `items` are in the contract's keyset order: `field` descending, then id descending. */
export function isKeysetOrdered(items: { id: string; [key: string]: unknown }[], field: string): boolean {
  for (let index = 1; index < items.length; index++) {
    const previous = items[index - 1];
    const current = items[index];
    const a = String(previous[field]);
    const b = String(current[field]);
    if (a < b || (a === b && previous.id <= current.id)) return false;
  }
  return true;
}
