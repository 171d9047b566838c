import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crawl, startTestEmulator, type TestEmulator } from './helpers.js';

describe('keyset paging over 20,000 orders while another client updates them', () => {
  let t: TestEmulator;

  beforeAll(async () => {
    t = await startTestEmulator({ rateLimit: false, orders: 20_000 });
  });
  afterAll(() => t.emulator.close());

  it('returns no order twice, and every order it missed was updated at or after the crawl started', async () => {
    const ids = [...t.emulator.store.orders.keys()];
    const crawlStart = new Date(t.clock.now()).toISOString();
    let next = 0;
    const returned = await crawl(t.emulator, '/orders', {
      limit: 100,
      // Between pages, time passes and another client updates orders spread over the whole list.
      between: () => {
        t.clock.advance(250);
        for (let n = 0; n < 15; n++) {
          t.emulator.store.updateOrder(ids[next % ids.length]);
          next += 1_333;
        }
      },
    });
    const seen = new Set(returned.map((order) => order.id));
    expect(seen.size).toBe(returned.length);
    const missed = [...t.emulator.store.orders.values()].filter((order) => !seen.has(order.id));
    // The updates must have made some orders jump ahead of the cursor, or this test proves nothing.
    expect(missed.length).toBeGreaterThan(0);
    for (const order of missed) expect(order.updated_at >= crawlStart).toBe(true);
    expect(returned.length + missed.length).toBe(20_000);
  });
});

describe('listings?status=error&error_code=C across pages', () => {
  let t: TestEmulator;

  beforeAll(async () => {
    t = await startTestEmulator({ rateLimit: false, products: 300 });
  });
  afterAll(() => t.emulator.close());

  it('returns exactly the listings a client-side filter finds, for every code', async () => {
    const all = await crawl(t.emulator, '/listings');
    const codes = new Set(
      all.flatMap((listing) => listing.issues.map((issue: { code: string }) => issue.code)),
    );
    expect(codes).toContain('photo_required_for_channel');
    for (const code of codes) {
      const served = await crawl(t.emulator, `/listings?status=error&error_code=${code}`, { limit: 3 });
      const expected = all.filter(
        (listing) =>
          listing.status === 'error' && listing.issues.some((issue: { code: string }) => issue.code === code),
      );
      expect(served.map((listing) => listing.id).sort()).toEqual(
        expected.map((listing) => listing.id).sort(),
      );
      expect(served.every((listing) => listing.status === 'error')).toBe(true);
    }
  });
});
