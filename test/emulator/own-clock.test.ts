/**
 * The store moves on its own clock: with order arrivals on and a webhook endpoint registered,
 * a receiver hears of a new order within 1 s of its arrival with no other request to the API.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startEmulator } from '../../src/emulator/index.js';
import { type CaptureServer, captureServer } from '../helpers/capture-server.js';
import { call } from '../helpers/service-api.js';

describe('the emulator on its own clock', () => {
  const closers: (() => Promise<void>)[] = [];
  afterEach(async () => {
    await Promise.all(closers.splice(0).map((close) => close()));
  });

  it('delivers a due order.created within 1 s with no API traffic', async () => {
    const receiver: CaptureServer = await captureServer();
    closers.push(() => receiver.close());
    // About one order a second, on the real clock.
    const emulator = await startEmulator({ port: 0, orderArrivalPerMinute: 60, rateLimit: false });
    closers.push(() => emulator.close());
    const created = await call(emulator, 'POST', '/webhook_endpoints', {
      body: { url: `${receiver.url}/hook`, enabled_events: ['order.created'] },
    });
    expect(created.status).toBe(201);
    const requestsBefore = emulator.requests().length;
    // Bounded by what a hang would exceed: arrivals average one a second.
    const deadline = Date.now() + 30_000;
    while (receiver.requests.length === 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const heardAt = Date.now();
    expect(receiver.requests.length).toBeGreaterThan(0);
    expect(emulator.requests().length).toBe(requestsBefore);
    const event = JSON.parse(receiver.requests[0]?.body.toString('utf8') ?? '{}');
    expect(event.type).toBe('order.created');
    expect(heardAt - Date.parse(event.created_at)).toBeLessThan(1_000);
  });

  it('stops its clock on close: nothing arrives after it', async () => {
    const emulator = await startEmulator({ port: 0, orderArrivalPerMinute: 600, rateLimit: false });
    await emulator.close();
    const orders = emulator.store.orders.size;
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(emulator.store.orders.size).toBe(orders);
  });
});
