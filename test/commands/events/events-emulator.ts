/**
 * What the events commands' tests share: one emulator per test file (a long channel delay keeps
 * operation.completed events out of the counts), receivers closed after each test, the
 * environment with the signing secret, and the log read straight from the API.
 */
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';
import type { RunningEmulator } from '../../../src/emulator/index.js';
import { emulator, envFor } from '../../helpers/emulator.js';
import { type Receiver, startReceiver } from '../../helpers/receiver.js';
import { call, crawl } from '../../helpers/service-api.js';

export const SECRET = 'whsec_e2e_events_0123456789abcdef';

/** The emulator of the test file that called useEventsEmulator (a live binding). */
export let emu: RunningEmulator;
let receivers: Receiver[] = [];

/** Starts the file's emulator before its tests and resets it before each; closes what they opened. */
export function useEventsEmulator(): void {
  beforeAll(async () => {
    emu = await emulator({ channelDelayMs: 600_000 });
  });
  beforeEach(() => emu.reset());
  afterEach(async () => {
    await Promise.all(receivers.map((r) => r.close()));
    receivers = [];
  });
  afterAll(() => emu.close());
}

export async function receiver(answer?: Parameters<typeof startReceiver>[0]): Promise<Receiver> {
  const started = await startReceiver(answer);
  receivers.push(started);
  return started;
}

export function env(): Record<string, string> {
  return { ...envFor(emu), SVC_WEBHOOK_SECRET: SECRET };
}

/** The log's events since `since` (inclusive), oldest first, straight from the API. */
export async function logSince(since: string, type?: string): Promise<Array<Record<string, unknown>>> {
  const items = await crawl(emu, '/events', { query: { created_after: since, ...(type ? { type } : {}) } });
  return items.reverse();
}

/** Changes a SKU's quantity with the live key over HTTP, so the store emits inventory.updated. */
export async function touchInventory(index: number): Promise<void> {
  const sku = emu.store.allSkus()[index];
  const quantity = (emu.store.inventoryBySku(sku)?.quantity ?? 0) + 1;
  const answer = await call(emu, 'PATCH', `/inventory/${encodeURIComponent(sku)}`, { body: { quantity } });
  expect(answer.status).toBe(200);
}
