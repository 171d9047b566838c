import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, crawl } from '../helpers/service-api.js';
import { startTestEmulator, type TestEmulator } from './helpers.js';

/**
 * One store of 20,000 orders for both crawls under updates (seeding it is most of this file's
 * cost): the second crawl starts from the store the first one left, whose orders it counts anew.
 */
let big: TestEmulator;
beforeAll(async () => {
  big = await startTestEmulator({ rateLimit: false, orders: 20_000 });
}, 120_000);
afterAll(() => big.emulator.close());

describe('keyset paging over 20,000 orders while another client updates them', () => {
  let t: TestEmulator;
  beforeAll(() => {
    t = big;
  });

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

describe('indexed lists while orders are updated, fulfilled and created during the crawl', () => {
  let t: TestEmulator;
  beforeAll(() => {
    t = big;
  });

  const newestFirst = (a: OrderLike, b: OrderLike) =>
    a.updated_at === b.updated_at ? (a.id < b.id ? 1 : -1) : a.updated_at < b.updated_at ? 1 : -1;

  it('returns each order at most once, misses only orders changed or created after it began, and stays in order', async () => {
    const { store } = t.emulator;
    const startIds = new Set(store.orders.keys());
    const ids = [...startIds];
    const crawlStart = new Date(t.clock.now()).toISOString();
    const statuses = ['awaiting_shipment', 'shipped', 'canceled', 'refunded'];
    let next = 0;
    // Another client fulfils orders over HTTP while the crawl runs.
    const shippable = [...store.orders.values()].filter((o) => o.status === 'awaiting_shipment').slice(0, 60);
    const fulfilments = (async () => {
      for (const [n, order] of shippable.entries()) {
        await call(t.emulator, 'POST', `/orders/${order.id}/fulfillment`, {
          body: { tracking: { number: `CRAWL${n}`, carrier: 'UPS' } },
        });
      }
    })();
    const returned = await crawl(t.emulator, '/orders', {
      limit: 100,
      between: (page) => {
        t.clock.advance(250);
        for (let n = 0; n < 10; n++) {
          store.updateOrder(ids[next % ids.length], { status: statuses[(page + n) % statuses.length] });
          next += 1_571;
        }
        for (let n = 0; n < 3; n++) t.emulator.arrivals.arrive(t.clock.now() - n);
      },
    });
    await fulfilments;
    const seen = new Set(returned.map((order) => order.id));
    const missed = [...startIds].filter((id) => !seen.has(id)).map((id) => store.orders.get(id) as OrderLike);
    expect(missed.length).toBeGreaterThan(0);
    for (const order of missed) expect(order.updated_at >= crawlStart).toBe(true);
    // Within each page and across pages, what came back was in list order when it was read.
    for (let index = 1; index < returned.length; index++) {
      const [before, after] = [returned[index - 1], returned[index]];
      if (before.updated_at < crawlStart && after.updated_at < crawlStart) {
        expect(newestFirst(before, after)).toBeLessThan(0);
      }
    }
    // After all that, every list and filter index agrees with a sort of the store.
    const everything = [...store.orders.values()].sort(newestFirst);
    expect(everything.length).toBeGreaterThan(20_000);
    expect((await crawl(t.emulator, '/orders')).map((o) => o.id)).toEqual(everything.map((o) => o.id));
    for (const status of statuses) {
      const served = await crawl(t.emulator, `/orders?status=${status}`);
      expect(served.map((o) => o.id)).toEqual(everything.filter((o) => o.status === status).map((o) => o.id));
    }
    const account = everything[0].channel_account_id;
    const byAccount = await crawl(t.emulator, `/orders?channel_account_id=${account}&status=shipped`);
    expect(byAccount.map((o) => o.id)).toEqual(
      everything.filter((o) => o.channel_account_id === account && o.status === 'shipped').map((o) => o.id),
    );
  }, 120_000);
});

interface OrderLike {
  id: string;
  updated_at: string;
  status: string;
  channel_account_id: string;
}
