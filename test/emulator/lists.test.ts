import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor } from '../../src/emulator/http/pagination.js';
import { crawl, get } from '../helpers/service-api.js';
import { isKeysetOrdered, startTestEmulator, type TestEmulator } from './helpers.js';

describe('list mechanics', () => {
  let t: TestEmulator;

  beforeAll(async () => {
    t = await startTestEmulator({ rateLimit: false, orders: 300 });
  });
  afterAll(() => t.emulator.close());

  it.each(['0', '101', '-1', 'abc', '1.5', '', '1e2'])(
    'rejects limit=%j with 400 parameter_invalid',
    async (limit) => {
      const answer = await get(t.emulator, `/orders?limit=${limit}`);
      expect(answer.status).toBe(400);
      expect(answer.body.error).toMatchObject({ code: 'parameter_invalid', param: 'limit' });
    },
  );

  it('accepts limit 1 and 100, and defaults to 25', async () => {
    expect((await get(t.emulator, '/orders?limit=1')).body.data).toHaveLength(1);
    expect((await get(t.emulator, '/orders?limit=100')).body.data).toHaveLength(100);
    expect((await get(t.emulator, '/orders')).body.data).toHaveLength(25);
  });

  it.each([
    ['garbage', 'not a cursor!'],
    ['base64 of text', Buffer.from('hello').toString('base64url')],
    ['base64 of the wrong JSON', Buffer.from('{"x":1}').toString('base64url')],
  ])('rejects an unreadable cursor (%s) with 400 parameter_invalid', async (_label, cursor) => {
    const answer = await get(t.emulator, `/listings?cursor=${encodeURIComponent(cursor)}`);
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatchObject({ code: 'parameter_invalid', param: 'cursor' });
  });

  it('round-trips its own cursors and points after the last item', async () => {
    expect(decodeCursor(encodeCursor('2025-01-01T00:00:00.000Z', 'ord_x', 'scope'), 'scope')).toEqual({
      key: '2025-01-01T00:00:00.000Z',
      id: 'ord_x',
    });
    const first = await get(t.emulator, '/orders?limit=3');
    const next = await get(t.emulator, `/orders?limit=3&cursor=${first.body.next_cursor}`);
    const both = await get(t.emulator, '/orders?limit=6');
    expect([...first.body.data, ...next.body.data].map((order) => order.id)).toEqual(
      both.body.data.map((order: { id: string }) => order.id),
    );
  });

  it('ends with has_more false and next_cursor null, and pages cover the list exactly', async () => {
    const all = await crawl(t.emulator, '/orders', { limit: 100 });
    expect(all).toHaveLength(300);
    const small = await crawl(t.emulator, '/orders', { limit: 7 });
    expect(small.map((order) => order.id)).toEqual(all.map((order) => order.id));
    const last = await get(
      t.emulator,
      `/orders?limit=100&created_after=${encodeURIComponent(all[0].created_at)}`,
    );
    expect(last.body.has_more).toBe(false);
    expect(last.body.next_cursor).toBeNull();
    const exact = await get(t.emulator, '/orders?limit=100');
    expect(exact.body.has_more).toBe(true);
  });

  it('orders by updated_at (orders, listings, products) or created_at (operations, events), then id, descending', async () => {
    expect(isKeysetOrdered(await crawl(t.emulator, '/orders'), 'updated_at')).toBe(true);
    expect(isKeysetOrdered(await crawl(t.emulator, '/listings'), 'updated_at')).toBe(true);
    expect(isKeysetOrdered(await crawl(t.emulator, '/products'), 'updated_at')).toBe(true);
    expect(isKeysetOrdered(await crawl(t.emulator, '/operations'), 'created_at')).toBe(true);
    expect(isKeysetOrdered(await crawl(t.emulator, '/events'), 'created_at')).toBe(true);
  });

  it('breaks updated_at ties by id descending', async () => {
    const orders = await crawl(t.emulator, '/orders');
    for (const order of orders.slice(0, 40)) t.emulator.store.updateOrder(order.id);
    const tied = (await crawl(t.emulator, '/orders', { limit: 9 })).slice(0, 40);
    expect(new Set(tied.map((order) => order.updated_at)).size).toBe(1);
    const ids = tied.map((order) => order.id);
    expect(ids).toEqual([...ids].sort().reverse());
  });

  it.each([
    ['/products', 'updated_after'],
    ['/listings', 'updated_after'],
    ['/orders', 'created_after'],
    ['/operations', 'created_after'],
    ['/events', 'created_after'],
  ])('rejects a malformed %s?%s with 400 naming it', async (path, param) => {
    const answer = await get(t.emulator, `${path}?${param}=yesterday`);
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatchObject({ code: 'parameter_invalid', param });
  });

  it('reads a time with its offset, and refuses one without an offset and a date alone (RFC 3339)', async () => {
    const all = await crawl(t.emulator, '/orders');
    const pivot = all[Math.floor(all.length / 2)].created_at as string;
    const withZ = await crawl(t.emulator, `/orders?created_after=${encodeURIComponent(pivot)}`);
    expect(withZ.length).toBe(all.filter((order) => order.created_at >= pivot).length);
    for (const value of [pivot.replace('Z', ''), pivot.slice(0, 10)]) {
      const answer = await get(t.emulator, `/orders?created_after=${encodeURIComponent(value)}`);
      expect(answer.status, value).toBe(400);
      expect(answer.body.error.param).toBe('created_after');
    }
  });

  it('answers 404 resource_missing naming the id for unknown resources', async () => {
    for (const path of [
      '/products/prod_nope',
      '/listings/list_nope',
      '/orders/ord_nope',
      '/operations/op_nope',
      '/channel_accounts/chac_nope',
      '/webhook_endpoints/we_nope',
    ]) {
      const answer = await get(t.emulator, path);
      expect(answer.status, path).toBe(404);
      expect(answer.body.error).toMatchObject({ code: 'resource_missing', param: 'id' });
    }
  });
});
