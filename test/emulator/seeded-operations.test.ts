import { afterAll, beforeAll, expect, it } from 'vitest';
import { startReceiver } from '../helpers/receiver.js';
import { call, crawl, get } from '../helpers/service-api.js';
import { startTestEmulator, type TestEmulator } from './helpers.js';

let test: TestEmulator;
beforeAll(async () => {
  test = await startTestEmulator();
});
afterAll(() => test.emulator.close());

interface OperationBody {
  id: string;
  type: string;
  status: string;
  resource_id: string;
  completed_at: string | null;
  results: { status: string; listing_id: string | null; error: { code: string } | null }[];
}

const TERMINAL = ['succeeded', 'partial', 'failed'];

it('seeded operations under way end a minute after seeding through the channels: events, listings and webhook deliveries follow', async () => {
  const receiver = await startReceiver();
  try {
    const endpoint = await call(test.emulator, 'POST', '/webhook_endpoints', {
      body: { url: receiver.url, enabled_events: ['operation.completed', 'listing.status_changed'] },
    });
    expect(endpoint.status).toBe(201);
    const open = async () =>
      ((await crawl(test.emulator, '/operations')) as OperationBody[]).filter(
        (operation) => operation.status === 'pending' || operation.status === 'processing',
      );
    const before = await open();
    expect(before.length).toBeGreaterThan(0);
    expect(before.some((operation) => operation.type.startsWith('listing.'))).toBe(true);
    test.clock.advance(30_000);
    expect((await open()).length).toBe(before.length);
    test.clock.advance(30_000);
    expect(await open()).toEqual([]);
    const completions = new Map(
      (await crawl(test.emulator, '/events?type=operation.completed')).map((event) => [
        event.data.object.id,
        event.data.object as OperationBody,
      ]),
    );
    for (const { id } of before) {
      const ended = (await get(test.emulator, `/operations/${id}`)).body as OperationBody;
      expect(TERMINAL).toContain(ended.status);
      expect(ended.completed_at).not.toBeNull();
      expect(ended.results.every((result) => TERMINAL.includes(result.status))).toBe(true);
      // The same path as a new operation: one operation.completed event with the final state.
      expect(completions.get(id)?.status).toBe(ended.status);
      if (ended.type.startsWith('listing.')) {
        const listing = (await get(test.emulator, `/listings/${ended.resource_id}`)).body;
        expect(listing.status).toBe(ended.status === 'succeeded' ? 'listed' : 'error');
      }
    }
    await test.emulator.webhooks.idle();
    const delivered = receiver.received.map((delivery) => JSON.parse(delivery.body));
    for (const { id } of before) {
      expect(
        delivered.some((event) => event.type === 'operation.completed' && event.data.object.id === id),
      ).toBe(true);
    }
    expect(delivered.some((event) => event.type === 'listing.status_changed')).toBe(true);
  } finally {
    await receiver.close();
  }
});
