import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  EVENT_TYPES,
  LISTING_STATUSES,
  OPERATION_STATUSES,
  ORDER_STATUSES,
} from '../../src/contract/contract.js';
import {
  ChannelAccount,
  ChannelAccountSummary,
  Event,
  Listing,
  listOf,
  Operation,
  Order,
  Product,
} from '../../src/contract/schemas/index.js';
import { createManualClock, startEmulator } from '../../src/emulator/index.js';
import { call, crawl, get } from '../helpers/service-api.js';
import { startTestEmulator, type TestEmulator } from './helpers.js';

// biome-ignore lint/suspicious/noExplicitAny: list items are arbitrary JSON.
type Item = any;

describe('seed data', () => {
  let t: TestEmulator;
  let products: Item[];
  let listings: Item[];
  let orders: Item[];
  let operations: Item[];
  let events: Item[];
  let accounts: Item[];

  beforeAll(async () => {
    t = await startTestEmulator({ rateLimit: false, orders: 500 });
    products = await crawl(t.emulator, '/products');
    listings = await crawl(t.emulator, '/listings');
    orders = await crawl(t.emulator, '/orders');
    operations = await crawl(t.emulator, '/operations');
    events = await crawl(t.emulator, '/events');
    accounts = (await get(t.emulator, '/channel_accounts')).body.data;
  });
  afterAll(() => t.emulator.close());

  it('has the requested sizes', () => {
    expect(products).toHaveLength(60);
    expect(orders).toHaveLength(500);
  });

  it('matches the shared zod schemas', () => {
    for (const product of products) Product.parse(product);
    for (const listing of listings) Listing.parse(listing);
    for (const order of orders) Order.parse(order);
    for (const operation of operations) Operation.parse(operation);
    for (const event of events) Event.parse(event);
    listOf(ChannelAccountSummary).parse({ object: 'list', data: accounts });
  });

  it('is deterministic under the seed, and differs with another seed', async () => {
    const start = Date.UTC(2025, 0, 10);
    const a = await startEmulator({ seed: 7, clock: createManualClock(start) });
    const b = await startEmulator({ seed: 7, clock: createManualClock(start) });
    const c = await startEmulator({ seed: 8, clock: createManualClock(start) });
    try {
      expect(a.keys).toEqual(b.keys);
      expect(a.keys.live).not.toBe(c.keys.live);
      const pageA = (await get(a, '/orders?limit=50', a.keys.live)).body;
      const pageB = (await get(b, '/orders?limit=50', b.keys.live)).body;
      const pageC = (await get(c, '/orders?limit=50', c.keys.live)).body;
      expect(pageA).toEqual(pageB);
      expect(pageA.data[0].id).not.toBe(pageC.data[0].id);
      expect((await get(a, '/listings?limit=100', a.keys.live)).body).toEqual(
        (await get(b, '/listings?limit=100', b.keys.live)).body,
      );
    } finally {
      await Promise.all([a.close(), b.close(), c.close()]);
    }
  });

  it('keeps the keys when the data size changes', async () => {
    const other = await startEmulator({ orders: 10, products: 5, clock: createManualClock() });
    try {
      expect(other.keys).toEqual(t.emulator.keys);
    } finally {
      await other.close();
    }
  });

  it('resets to exactly the seeded state', async () => {
    const sku = t.emulator.store.allSkus()[0];
    const before = (await get(t.emulator, '/orders?limit=20')).body;
    t.emulator.store.setInventory(sku, { quantity: 999_999 });
    t.emulator.store.updateOrder(before.data[5].id, { status: 'canceled' });
    t.emulator.reset();
    expect(t.emulator.store.inventoryBySku(sku)?.quantity).not.toBe(999_999);
    expect((await get(t.emulator, '/orders?limit=20')).body).toEqual(before);
  });

  it('resets to the same state every time, keeping nothing of what was done between, and makes the same ids after', async () => {
    const state = async () =>
      Promise.all(
        ['/products', '/listings', '/orders', '/operations', '/events'].map((path) =>
          crawl(t.emulator, path),
        ),
      );
    const changeEverything = async () => {
      const sku = t.emulator.store.allSkus()[1];
      t.emulator.store.setInventory(sku, { quantity: 31_337 });
      t.emulator.store.updateOrder(orders[3].id, { status: 'canceled' });
      const listing = listings[0];
      await call(t.emulator, 'PATCH', `/listings/${listing.id}`, {
        body: { attributes: { ...listing.attributes, color: 'Changed' } },
      });
      return (await call(t.emulator, 'POST', '/products', { body: { title: 'Made after a reset' } })).body.id;
    };
    // The ids after a reset are those after the seeding itself.
    const small = await startEmulator({ orders: 10, products: 5, clock: createManualClock() });
    try {
      const make = async () => (await call(small, 'POST', '/products', { body: { title: 'x' } })).body.id;
      const beforeAnyReset = await make();
      small.reset();
      expect(await make()).toBe(beforeAnyReset);
    } finally {
      await small.close();
    }
    t.emulator.reset();
    const first = await state();
    const madeFirst = await changeEverything();
    for (let round = 0; round < 2; round += 1) {
      t.emulator.reset();
      expect(await state()).toEqual(first);
      expect(await changeEverything()).toBe(madeFirst);
    }
    t.emulator.reset();
  });

  it('resets a store too big to keep a seed of by seeding it again: the same state, the same ids after', async () => {
    const big = await startEmulator({ orders: 5_000, rateLimit: false, clock: createManualClock() });
    try {
      const first = await get(big, '/orders?limit=50');
      const made = (await call(big, 'POST', '/products', { body: { title: 'x' } })).body.id;
      big.store.updateOrder(first.body.data[0].id, { status: 'canceled' });
      big.reset();
      expect(await get(big, '/orders?limit=50')).toMatchObject({ body: first.body });
      expect((await call(big, 'POST', '/products', { body: { title: 'x' } })).body.id).toBe(made);
    } finally {
      await big.close();
    }
  });

  it('has channel accounts of several kinds, two on one kind, with their settings', async () => {
    expect(new Set(accounts.map((a) => a.channel)).size).toBeGreaterThanOrEqual(4);
    for (const summary of accounts) {
      expect(Object.keys(summary).sort()).toEqual(
        ['channel', 'discovery', 'id', 'label', 'object', 'shop_name', 'status'].sort(),
      );
      const full = (await get(t.emulator, `/channel_accounts/${summary.id}`)).body;
      ChannelAccount.parse(full);
      expect(full.sync).toHaveProperty('quantity_from_orders');
      expect(full.pricing).toHaveProperty('mode');
      expect(full.inventory).toHaveProperty('control');
    }
    const ebay = accounts.filter((a) => a.channel === 'ebay');
    expect(ebay).toHaveLength(2);
    expect(ebay[0].id).not.toBe(ebay[1].id);
  });

  it('has products with dense option matrices, products without images, and store-wide unique SKUs', () => {
    const skus = products.flatMap((p) => p.variants.map((v: Item) => v.sku));
    expect(new Set(skus).size).toBe(skus.length);
    expect(products.some((p) => p.images.length === 0)).toBe(true);
    const dense = products.filter((p) => p.variants.length >= 6 && p.variants[0].options);
    expect(dense.length).toBeGreaterThan(0);
    for (const product of products.filter((p) => p.variants[0].options)) {
      const names = Object.keys(product.variants[0].options);
      const values = names.map((name) => new Set(product.variants.map((v: Item) => v.options[name])));
      const expected = values.reduce((n, set) => n * set.size, 1);
      const combos = new Set(
        product.variants.map((v: Item) => names.map((name) => v.options[name]).join('|')),
      );
      expect(combos.size).toBe(expected);
      expect(product.variants).toHaveLength(expected);
    }
  });

  it('has listings in every status on both accounts of the shared kind', () => {
    for (const account of accounts.filter((a) => a.channel === 'ebay')) {
      const statuses = new Set(
        listings.filter((l) => l.channel_account_id === account.id).map((l) => l.status),
      );
      for (const status of LISTING_STATUSES) expect(statuses, `${account.label} ${status}`).toContain(status);
    }
  });

  it('has failing listings with plain-text issues of several codes and severities', () => {
    const failing = listings.filter((l) => l.status === 'error');
    expect(failing.every((l) => l.issues.some((issue: Item) => issue.severity === 'error'))).toBe(true);
    const issues = failing.flatMap((l) => l.issues);
    expect(new Set(issues.map((issue) => issue.code)).size).toBeGreaterThanOrEqual(4);
    expect(new Set(listings.flatMap((l) => l.issues.map((issue: Item) => issue.severity)))).toEqual(
      new Set(['error', 'warning']),
    );
    const photo = failing.filter((l) =>
      l.issues.some((issue: Item) => issue.code === 'photo_required_for_channel'),
    );
    expect(photo.length).toBeGreaterThan(0);
    for (const listing of photo) {
      expect(products.find((p) => p.id === listing.product_id)?.images).toEqual([]);
    }
    expect(issues.some((issue) => issue.attribute_names.length > 0)).toBe(true);
    for (const issue of issues) expect(issue.message).not.toMatch(/[<>{}]/);
  });

  it('has orders in every status with the channel’s own source_status, real SKUs, full buyers and tracking', () => {
    const skus = new Set(t.emulator.store.allSkus());
    for (const status of ORDER_STATUSES)
      expect(
        orders.some((o) => o.status === status),
        status,
      ).toBe(true);
    const sourceByChannel = new Map<string, Set<string>>();
    for (const order of orders) {
      const set = sourceByChannel.get(order.channel) ?? new Set();
      set.add(`${order.status}=${order.source_status}`);
      sourceByChannel.set(order.channel, set);
      expect(order.updated_at >= order.created_at).toBe(true);
      expect(order.updated_at <= new Date(t.clock.now()).toISOString()).toBe(true);
      for (const line of order.lines) expect(skus.has(line.sku)).toBe(true);
      expect(order.buyer.address).toMatchObject({
        line1: expect.any(String),
        city: expect.any(String),
        postal_code: expect.any(String),
        country: order.buyer.country,
      });
      const shipped = ['shipped', 'refunded', 'partially_refunded'].includes(order.status);
      if (order.status === 'shipped') expect(order.tracking).toMatchObject({ number: expect.any(String) });
      if (!shipped) expect(order.tracking).toBeNull();
    }
    const amazonShipped = [...(sourceByChannel.get('amazon') ?? [])].find((s) => s.startsWith('shipped='));
    const ebayShipped = [...(sourceByChannel.get('ebay') ?? [])].find((s) => s.startsWith('shipped='));
    expect(amazonShipped).not.toBe(ebayShipped);
  });

  it('has operations in every status with per-channel results', () => {
    for (const status of OPERATION_STATUSES) {
      const some = operations.filter((o) => o.status === status);
      expect(some.length, status).toBeGreaterThan(0);
      for (const operation of some) expect(operation.results.length).toBeGreaterThan(0);
    }
    for (const operation of operations) {
      const terminal = ['succeeded', 'partial', 'failed'].includes(operation.status);
      expect(operation.completed_at !== null).toBe(terminal);
    }
    const partial = operations.find((o) => o.status === 'partial');
    expect(new Set(partial.results.map((r: Item) => r.status))).toEqual(new Set(['failed', 'succeeded']));
  });

  it('has events of every type over the last 30 days, each with a snapshot', () => {
    const windowStart = new Date(t.clock.now() - 30 * 86_400_000).toISOString();
    for (const type of EVENT_TYPES)
      expect(
        events.some((e) => e.type === type),
        type,
      ).toBe(true);
    for (const event of events) {
      expect(event.created_at >= windowStart).toBe(true);
      expect(event.data.object).toHaveProperty('object');
    }
    const spanDays =
      (Date.parse(events[0].created_at) - Date.parse(events[events.length - 1].created_at)) / 86_400_000;
    expect(spanDays).toBeGreaterThan(20);
  });

  // How fast is bench/memory.mjs's to say (it prints the seeding time), not a test's on a busy machine.
  it('seeds 20,000 orders', async () => {
    const big = await startEmulator({ orders: 20_000, clock: createManualClock() });
    await big.close();
    expect(big.store.counts().orders).toBe(20_000);
  });
});

describe('discovery and status routes', () => {
  let t: TestEmulator;
  let accounts: Item[];

  beforeAll(async () => {
    t = await startTestEmulator({ rateLimit: false });
    accounts = (await get(t.emulator, '/channel_accounts')).body.data;
  });
  afterAll(() => t.emulator.close());

  it('lists policies of each account', async () => {
    const ebay = accounts.find((a) => a.channel === 'ebay');
    const policies = (await get(t.emulator, `/channel_accounts/${ebay.id}/policies`)).body;
    expect(policies.object).toBe('list');
    expect(new Set(policies.data.map((p: Item) => p.type))).toEqual(
      new Set(['shipping', 'return', 'payment']),
    );
    for (const policy of policies.data) expect(policy.id).toMatch(/^pol_/);
    expect((await get(t.emulator, '/channel_accounts/chac_nope/policies')).status).toBe(404);
  });

  it('pages categories by path, browses by parent_id and searches by query with paths', async () => {
    const amazon = accounts.find((a) => a.channel === 'amazon');
    const base = `/channel_accounts/${amazon.id}/categories`;
    const all = await crawl(t.emulator, base, { limit: 5 });
    expect(all.length).toBeGreaterThan(20);
    const paths = all.map((c) => c.path);
    expect(paths).toEqual([...paths].sort());
    const roots = all.filter((c) => c.parent_id === null);
    const children = await crawl(t.emulator, `${base}?parent_id=${roots[0].id}`);
    expect(children.length).toBeGreaterThan(0);
    for (const child of children) {
      expect(child.parent_id).toBe(roots[0].id);
      expect(child.path.startsWith(`${roots[0].name} > `)).toBe(true);
    }
    const shirts = await crawl(t.emulator, `${base}?query=shirt`);
    expect(shirts.map((c) => c.path)).toEqual(['Clothing > Men > T-Shirts', 'Clothing > Women > T-Shirts']);
    expect(shirts.every((c) => c.leaf)).toBe(true);
    expect(roots.every((c) => !c.leaf)).toBe(true);
  });

  it('serves attribute schemas of categories, with required attributes', async () => {
    const ebay = accounts.find((a) => a.channel === 'ebay');
    const categories = await crawl(t.emulator, `/channel_accounts/${ebay.id}/categories?query=tents`);
    const schema = (
      await get(t.emulator, `/channel_accounts/${ebay.id}/categories/${categories[0].id}/attribute_schema`)
    ).body;
    expect(schema).toMatchObject({ object: 'attribute_schema', category_id: categories[0].id });
    const required = schema.attributes.filter((a: Item) => a.required).map((a: Item) => a.name);
    expect(required).toEqual(expect.arrayContaining(['brand', 'barcode', 'capacity']));
    expect(schema.attributes.find((a: Item) => a.name === 'condition').values).toContain('New');
    const missing = await get(t.emulator, `/channel_accounts/${ebay.id}/categories/999999/attribute_schema`);
    expect(missing.status).toBe(404);
    expect(missing.body.error.param).toBe('category_id');
  });

  it('gives an account without category discovery an empty list', async () => {
    const shopify = accounts.find((a) => a.channel === 'shopify');
    expect(shopify.discovery.categories).toBe(false);
    const answer = await get(t.emulator, `/channel_accounts/${shopify.id}/categories`);
    expect(answer.body).toEqual({ object: 'list', data: [], has_more: false, next_cursor: null });
  });

  it('serves seven days of half-hour status buckets ending now, and health', async () => {
    const status = (await get(t.emulator, '/status', null)).body;
    expect(status).toMatchObject({ object: 'status', state: 'operational', last_check: { ok: true } });
    expect(status.buckets).toHaveLength(7 * 48);
    const times = status.buckets.map((b: Item) => Date.parse(b.t));
    for (let i = 1; i < times.length; i++) expect(times[i] - times[i - 1]).toBe(30 * 60_000);
    expect(times[times.length - 1]).toBeLessThanOrEqual(t.clock.now());
    expect(times[times.length - 1] + 30 * 60_000).toBeGreaterThan(t.clock.now());
    for (const bucket of status.buckets) expect(bucket.up_ratio).toBeGreaterThan(0.8);
    expect(status.uptime_24h).toBeGreaterThan(90);
    expect(status.uptime_24h).toBeLessThanOrEqual(100);
    const health = (await get(t.emulator, '/health', null)).body;
    expect(health).toEqual({ object: 'health', status: 'ok', time: new Date(t.clock.now()).toISOString() });
  });
});
