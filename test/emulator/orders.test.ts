import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Order } from '../../src/contract/schemas/index.js';
import { channelKind } from '../../src/emulator/channel-kinds.js';
import type { OrderRecord } from '../../src/emulator/model.js';
import { call, crawl, get } from '../helpers/service-api.js';
import { startTestEmulator, type TestEmulator } from './helpers.js';

const TRACKING = {
  number: '1Z999AA10123456784',
  carrier: 'UPS',
  url: 'https://www.ups.com/track?tracknum=1Z999AA10123456784',
};

describe('POST /orders/{id}/fulfillment', () => {
  let t: TestEmulator;
  const fulfill = (
    id: string,
    body: unknown,
    options: { key?: string; headers?: Record<string, string> } = {},
  ) => call(t.emulator, 'POST', `/orders/${id}/fulfillment`, { body, ...options });
  const firstWith = (status: string): OrderRecord =>
    [...t.emulator.store.orders.values()].find((o) => o.status === status) as OrderRecord;

  beforeAll(async () => {
    t = await startTestEmulator({ rateLimit: false, writeQuota: 1 });
  });
  beforeEach(() => t.emulator.reset());
  afterAll(() => t.emulator.close());

  it('ships an order awaiting shipment: tracking set, fulfillment status, updated_at bumped, event emitted', async () => {
    const order = firstWith('awaiting_shipment');
    t.clock.advance(90_000);
    const answer = await fulfill(order.id, { tracking: TRACKING });
    expect(answer.status).toBe(200);
    const body = Order.parse(answer.body);
    expect(body).toMatchObject({
      id: order.id,
      status: 'shipped',
      fulfillment_status: 'fulfilled',
      tracking: TRACKING,
      updated_at: new Date(t.clock.now()).toISOString(),
    });
    expect(body.source_status).toBe(channelKind(order.channel).sourceStatus.shipped);
    expect((await get(t.emulator, `/orders/${order.id}`)).body.status).toBe('shipped');
    const events = [...t.emulator.store.events.values()].filter(
      (e) =>
        e.type === 'order.status_changed' &&
        e.created_at === body.updated_at &&
        (e.data.object as { id: string }).id === order.id,
    );
    expect(events).toHaveLength(1);
    expect((events[0].data.object as { status: string }).status).toBe('shipped');
  });

  it('does not count against the daily write quota (not under /products, /inventory or /listings)', async () => {
    const [a, b] = [...t.emulator.store.orders.values()].filter((o) => o.status === 'awaiting_shipment');
    expect((await fulfill(a.id, { tracking: TRACKING })).status).toBe(200);
    expect((await fulfill(b.id, { tracking: { number: 'X2', carrier: 'DHL' } })).status).toBe(200);
    expect(t.emulator.writeQuotaUsed()).toBe(0);
  });

  it.each(['shipped', 'canceled', 'refunded', 'awaiting_payment'])(
    'refuses a %s order with 409 invalid_state',
    async (status) => {
      const order = firstWith(status);
      const answer = await fulfill(order.id, { tracking: TRACKING });
      expect(answer.status).toBe(409);
      expect(answer.body.error).toMatchObject({ type: 'invalid_request_error', code: 'invalid_state' });
      expect(answer.body.error.message).toContain(order.id);
      expect(t.emulator.store.orders.get(order.id)?.status).toBe(status);
    },
  );

  it('answers 404 for an unknown order and 400 naming a missing carrier or a bad URL', async () => {
    expect((await fulfill('ord_nope', { tracking: TRACKING })).body.error.code).toBe('resource_missing');
    const order = firstWith('awaiting_shipment');
    const missing = await fulfill(order.id, { tracking: { number: '1' } });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toMatchObject({ code: 'parameter_missing', param: 'tracking.carrier' });
    const badUrl = await fulfill(order.id, { tracking: { ...TRACKING, url: 'not a url' } });
    expect(badUrl.status).toBe(400);
    expect(badUrl.body.error.param).toBe('tracking.url');
    expect(t.emulator.store.orders.get(order.id)?.status).toBe('awaiting_shipment');
  });

  it('needs orders:write: a read-only key gets 403 scope_missing and nothing changes', async () => {
    const order = firstWith('awaiting_shipment');
    const answer = await fulfill(order.id, { tracking: TRACKING }, { key: t.emulator.keys.read_only });
    expect(answer.status).toBe(403);
    expect(answer.body.error.code).toBe('scope_missing');
    expect(answer.body.error.message).toContain('orders:write');
    expect(t.emulator.store.orders.get(order.id)?.status).toBe('awaiting_shipment');
    const noRead = t.emulator.createKey({ scopes: ['orders:write'] });
    expect((await get(t.emulator, '/orders', noRead)).status).toBe(403);
  });

  it('with a test key answers the shipped order and changes nothing', async () => {
    const order = firstWith('awaiting_shipment');
    const events = t.emulator.store.events.size;
    const answer = await fulfill(order.id, { tracking: TRACKING }, { key: t.emulator.keys.test });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ id: order.id, status: 'shipped', tracking: TRACKING });
    expect(t.emulator.store.orders.get(order.id)?.status).toBe('awaiting_shipment');
    expect(t.emulator.store.events.size).toBe(events);
  });

  it('replays a repeated Idempotency-Key instead of answering 409', async () => {
    const order = firstWith('awaiting_shipment');
    const headers = { 'idempotency-key': 'ful-1' };
    const first = await fulfill(order.id, { tracking: TRACKING }, { headers });
    const again = await fulfill(order.id, { tracking: TRACKING }, { headers });
    expect(again.status).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
  });
});

describe('order arrivals', () => {
  it('are off by default', async () => {
    const t = await startTestEmulator({ rateLimit: false, orders: 20 });
    t.clock.advance(3_600_000);
    expect((await crawl(t.emulator, '/orders')).length).toBe(20);
    await t.emulator.close();
  });

  it('arrive over time when turned on, the same under the same seed and clock, with order.created events', async () => {
    const run = async () => {
      const t = await startTestEmulator({ rateLimit: false, orders: 20, orderArrivalPerMinute: 6 });
      const since = new Date(t.clock.now()).toISOString();
      t.clock.advance(10 * 60_000);
      const orders = await crawl(t.emulator, '/orders');
      const created = [...t.emulator.store.events.values()].filter(
        (e) => e.type === 'order.created' && e.created_at > since,
      );
      await t.emulator.close();
      return { orders, created, now: t.clock.now() };
    };
    const [a, b] = [await run(), await run()];
    const arrived = a.orders.filter((o) => Date.parse(o.created_at) > a.now - 10 * 60_000);
    // About 6 a minute for 10 minutes.
    expect(arrived.length).toBeGreaterThan(30);
    expect(arrived.length).toBeLessThan(100);
    for (const order of arrived) {
      // Unpaid arrivals may have been paid or canceled since, which moves their updated_at on.
      expect(Order.parse(order).status).toMatch(/^(awaiting_shipment|awaiting_payment|canceled)$/);
      if (order.status === 'awaiting_payment') expect(order.updated_at).toBe(order.created_at);
      else expect(order.updated_at >= order.created_at).toBe(true);
      expect(Date.parse(order.created_at)).toBeLessThanOrEqual(a.now);
    }
    expect(a.created.length).toBe(arrived.length);
    expect(b.orders).toEqual(a.orders);
  });

  it('take stock from the SKUs when the account takes quantity from orders, and only then', async () => {
    const t = await startTestEmulator({ rateLimit: false, orders: 0 });
    const { store } = t.emulator;
    for (const takes of [true, false]) {
      for (const account of store.accounts.values()) account.sync.quantity_from_orders = takes;
      const before = new Map(store.allSkus().map((sku) => [sku, store.inventoryBySku(sku)?.quantity]));
      const order = t.emulator.arrivals.arrive(t.clock.now()) as OrderRecord;
      expect(order).toBeDefined();
      for (const line of order.lines) {
        const was = before.get(line.sku) as number;
        const expected = takes
          ? Math.max(
              0,
              was - order.lines.filter((l) => l.sku === line.sku).reduce((n, l) => n + l.quantity, 0),
            )
          : was;
        expect(store.inventoryBySku(line.sku)?.quantity).toBe(expected);
      }
    }
    await t.emulator.close();
  });
});
