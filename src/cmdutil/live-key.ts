/** Whether writes are real: a live key changes the store, a test key only simulates. */
import { keyMode } from '../api/contract.js';
import type { Context } from './context.js';

/** The note a test key's answer gets. */
export const SIMULATED_NOTE = ' (test key: results were simulated, nothing changed)';

/** True when the key in force is a live one (writes reach the channels). */
export async function usesLiveKey(ctx: Context): Promise<boolean> {
  const { apiKey } = await ctx.credentials();
  return keyMode(apiKey ?? '') === 'live';
}
