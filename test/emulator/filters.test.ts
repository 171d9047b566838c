import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  EVENT_TYPES,
  LISTING_STATUSES,
  OPERATION_STATUSES,
  ORDER_STATUSES,
} from '../../src/contract/contract.js';
import { crawl } from '../helpers/service-api.js';
import { startTestEmulator, type TestEmulator } from './helpers.js';

// biome-ignore lint/suspicious/noExplicitAny: list items are arbitrary JSON.
type Item = any;

/** Each filter's answer, crawled at a small page size, equals a client-side filter of the full crawl. */
async function expectFilter(
  t: TestEmulator,
  path: string,
  query: Record<string, string>,
  all: Item[],
  predicate: (item: Item) => boolean,
): Promise<Item[]> {
  const search = new URLSearchParams(query).toString();
  const served = await crawl(t.emulator, `${path}?${search}`, { limit: 7 });
  const expected = all.filter(predicate);
  expect(
    served.map((item) => item.id),
    `${path}?${search}`,
  ).toEqual(expected.map((item) => item.id));
  return served;
}

describe('every list filter against a client-side filter of the full crawl', () => {
  let t: TestEmulator;
  let listings: Item[];
  let orders: Item[];
  let operations: Item[];
  let events: Item[];
  let products: Item[];
  let accounts: Item[];

  beforeAll(async () => {
    t = await startTestEmulator({ rateLimit: false, orders: 700 });
    listings = await crawl(t.emulator, '/listings');
    orders = await crawl(t.emulator, '/orders');
    operations = await crawl(t.emulator, '/operations');
    events = await crawl(t.emulator, '/events');
    products = await crawl(t.emulator, '/products');
    accounts = (await crawl(t.emulator, '/channel_accounts')) as Item[];
  });
  afterAll(() => t.emulator.close());

  it('listings by status, including an unknown status (empty, not an error)', async () => {
    for (const status of [...LISTING_STATUSES, 'paused']) {
      const served = await expectFilter(t, '/listings', { status }, listings, (l) => l.status === status);
      if (status !== 'paused') expect(served.length, status).toBeGreaterThan(0);
    }
  });

  it('listings by channel_account_id and by channel kind (a kind matches every account of it)', async () => {
    for (const account of accounts) {
      const served = await expectFilter(
        t,
        '/listings',
        { channel_account_id: account.id },
        listings,
        (l) => l.channel_account_id === account.id,
      );
      expect(served.length).toBeGreaterThan(0);
    }
    const ebay = await expectFilter(
      t,
      '/listings',
      { channel: 'ebay' },
      listings,
      (l) => l.channel === 'ebay',
    );
    const ebayAccounts = accounts
      .filter((account) => account.channel === 'ebay')
      .map((account) => account.id);
    expect(ebayAccounts).toHaveLength(2);
    expect(new Set(ebay.map((l) => l.channel_account_id))).toEqual(new Set(ebayAccounts));
    for (const channel of ['amazon', 'etsy', 'walmart', 'unknown_channel']) {
      await expectFilter(t, '/listings', { channel }, listings, (l) => l.channel === channel);
    }
  });

  it('listings by product_id', async () => {
    for (const product of products.slice(0, 6)) {
      await expectFilter(
        t,
        '/listings',
        { product_id: product.id },
        listings,
        (l) => l.product_id === product.id,
      );
      expect(product.listings.map((summary: Item) => summary.id).sort()).toEqual(
        listings
          .filter((l) => l.product_id === product.id)
          .map((l) => l.id)
          .sort(),
      );
    }
  });

  it('listings by error_code alone, and status=error&error_code=C for every code seen', async () => {
    const codes = new Set(listings.flatMap((l) => l.issues.map((issue: Item) => issue.code)));
    expect(codes.size).toBeGreaterThanOrEqual(4);
    for (const code of codes) {
      const hasCode = (l: Item) => l.issues.some((issue: Item) => issue.code === code);
      await expectFilter(t, '/listings', { error_code: code }, listings, hasCode);
      await expectFilter(
        t,
        '/listings',
        { status: 'error', error_code: code },
        listings,
        (l) => l.status === 'error' && hasCode(l),
      );
    }
  });

  it('listings by updated_after (inclusive) and in combination', async () => {
    const pivot = listings[Math.floor(listings.length / 3)];
    const served = await expectFilter(
      t,
      '/listings',
      { updated_after: pivot.updated_at },
      listings,
      (l) => l.updated_at >= pivot.updated_at,
    );
    expect(served.map((l) => l.id)).toContain(pivot.id);
    const account = accounts[1];
    await expectFilter(
      t,
      '/listings',
      { channel_account_id: account.id, status: 'listed', updated_after: pivot.updated_at },
      listings,
      (l) => l.channel_account_id === account.id && l.status === 'listed' && l.updated_at >= pivot.updated_at,
    );
  });

  it('orders by status, channel_account_id, channel and created_after (inclusive), alone and together', async () => {
    for (const status of [...ORDER_STATUSES, 'on_hold']) {
      const served = await expectFilter(t, '/orders', { status }, orders, (o) => o.status === status);
      if (status !== 'on_hold') expect(served.length, status).toBeGreaterThan(0);
    }
    for (const account of accounts) {
      await expectFilter(
        t,
        '/orders',
        { channel_account_id: account.id },
        orders,
        (o) => o.channel_account_id === account.id,
      );
    }
    await expectFilter(t, '/orders', { channel: 'ebay' }, orders, (o) => o.channel === 'ebay');
    const pivot = orders[Math.floor(orders.length / 2)];
    const served = await expectFilter(
      t,
      '/orders',
      { created_after: pivot.created_at },
      orders,
      (o) => o.created_at >= pivot.created_at,
    );
    expect(served.map((o) => o.id)).toContain(pivot.id);
    await expectFilter(
      t,
      '/orders',
      { channel: 'amazon', status: 'shipped', created_after: pivot.created_at },
      orders,
      (o) => o.channel === 'amazon' && o.status === 'shipped' && o.created_at >= pivot.created_at,
    );
  });

  it('operations by status and created_after (inclusive)', async () => {
    for (const status of OPERATION_STATUSES) {
      const served = await expectFilter(t, '/operations', { status }, operations, (o) => o.status === status);
      expect(served.length, status).toBeGreaterThan(0);
    }
    const pivot = operations[Math.floor(operations.length / 2)];
    await expectFilter(
      t,
      '/operations',
      { created_after: pivot.created_at },
      operations,
      (o) => o.created_at >= pivot.created_at,
    );
    await expectFilter(
      t,
      '/operations',
      { status: 'failed', created_after: pivot.created_at },
      operations,
      (o) => o.status === 'failed' && o.created_at >= pivot.created_at,
    );
  });

  it('events by type (exact and prefix.*) and created_after (inclusive)', async () => {
    for (const type of EVENT_TYPES) {
      const served = await expectFilter(t, '/events', { type }, events, (e) => e.type === type);
      expect(served.length, type).toBeGreaterThan(0);
    }
    await expectFilter(t, '/events', { type: 'order.*' }, events, (e) => e.type.startsWith('order.'));
    const pivot = events[Math.floor(events.length / 2)];
    const served = await expectFilter(
      t,
      '/events',
      { created_after: pivot.created_at },
      events,
      (e) => e.created_at >= pivot.created_at,
    );
    expect(served.map((e) => e.id)).toContain(pivot.id);
  });

  it('products by updated_after (inclusive)', async () => {
    const pivot = products[Math.floor(products.length / 2)];
    const served = await expectFilter(
      t,
      '/products',
      { updated_after: pivot.updated_at },
      products,
      (p) => p.updated_at >= pivot.updated_at,
    );
    expect(served.map((p) => p.id)).toContain(pivot.id);
  });

  it('keeps only the last 30 days in the event log', async () => {
    const start = t.clock.now();
    try {
      t.clock.advance(15 * 86_400_000);
      // Events emitted since the first crawl (the seeded work ending a minute after seeding) are
      // new; of the events there before, only the last 30 days' stay.
      const startIso = new Date(start).toISOString();
      const later = (await crawl(t.emulator, '/events')).filter((e) => e.created_at <= startIso);
      const windowStart = new Date(t.clock.now() - 30 * 86_400_000).toISOString();
      expect(later.map((e) => e.id)).toEqual(
        events.filter((e) => e.created_at >= windowStart).map((e) => e.id),
      );
      expect(later.length).toBeLessThan(events.length);
    } finally {
      t.clock.set(start);
    }
  });
});
