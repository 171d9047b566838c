import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ApiClient } from '../../../src/client/client.js';
import { ENDPOINTS } from '../../../src/contract/endpoints.js';
import { OPERATIONS } from '../../../src/contract/operations.js';
import { ProtocolError } from '../../../src/errors.js';
import { type ScriptServer, type SeenRequest, scriptServer } from './script-server.js';

const KEY = 'svc_test_client0000';
const Item = z.looseObject({ id: z.string(), price: z.string() });

let server: ScriptServer | undefined;
let client: ApiClient | undefined;

afterEach(async () => {
  await client?.close();
  await server?.close();
  client = undefined;
  server = undefined;
});

/** A list of `total` items paged by cursor as the service does it. */
function listing(total: number) {
  return (_n: number, req: SeenRequest) => {
    const query = new URL(req.url, 'http://x').searchParams;
    const start = Number(query.get('cursor') ?? 0);
    const limit = Number(query.get('limit'));
    const end = Math.min(total, start + limit);
    const data = Array.from({ length: end - start }, (_, i) => ({
      id: `it_${start + i}`,
      price: '1.00',
      extra: true,
    }));
    const more = end < total;
    return {
      status: 200,
      json: { object: 'list', data, has_more: more, next_cursor: more ? String(end) : null },
    };
  };
}

async function start(script: Parameters<typeof scriptServer>[0]): Promise<ApiClient> {
  server = await scriptServer(script);
  client = new ApiClient({ baseUrl: server.url, apiKey: KEY });
  return client;
}

async function collect<T>(iter: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of iter) items.push(item);
  return items;
}

describe('ApiClient.list', () => {
  it('crawls pages of min(100, left) and keeps unknown fields', async () => {
    const api = await start(listing(1000));
    const items = await collect(api.list('/products', { updated_after: '2025-01-01' }, Item, { limit: 150 }));
    expect(items).toHaveLength(150);
    expect(items[0]).toEqual({ id: 'it_0', price: '1.00', extra: true });
    expect(server!.seen.map((r) => r.url)).toEqual([
      '/rest/v1/products?updated_after=2025-01-01&limit=100',
      '/rest/v1/products?updated_after=2025-01-01&limit=50&cursor=100',
    ]);
  });

  it("follows every page with 'all' and takes a query limit as the page size", async () => {
    const api = await start(listing(7));
    expect(await collect(api.list('/orders', { limit: 3 }, undefined, { limit: 'all' }))).toHaveLength(7);
    expect(server!.seen.map((r) => new URL(r.url, 'http://x').searchParams.get('limit'))).toEqual([
      '3',
      '3',
      '3',
    ]);
    expect(api.stats.requests).toBe(3);
  });

  it('names the field when an item does not match its schema', async () => {
    const api = await start([
      {
        status: 200,
        json: {
          object: 'list',
          data: [
            { id: 'a', price: '1' },
            { id: 'b', price: 2 },
          ],
        },
      },
    ]);
    const crawl = collect(api.list('/products', {}, Item, { limit: 25 }));
    await expect(crawl).rejects.toBeInstanceOf(ProtocolError);
    await expect(crawl).rejects.toThrow(/GET \/products: data\[1\]\.price: /);
  });

  it('refuses an answer that is not a list', async () => {
    const api = await start([{ status: 200, json: { object: 'product' } }]);
    await expect(collect(api.list('/products', {}, undefined, { limit: 25 }))).rejects.toThrow(
      /"data" array/,
    );
  });
});

describe('ApiClient.call: answers read by the generated check, zod naming the field', () => {
  const order = {
    id: 'ord_1',
    object: 'order',
    channel_account_id: 'ch_1',
    status: 'on_hold_by_channel',
    lines: [{ sku: 'A-1', quantity: 2, gift_wrap: true }],
    created_at: '2025-01-31T09:00:00Z',
    loyalty_tier: 'gold',
  };

  it('keeps an order with unknown fields and an unknown status as it came', async () => {
    const api = await start([{ status: 200, json: { object: 'list', data: [order], has_more: false } }]);
    const [read] = await collect(api.call(ENDPOINTS.listOrders));
    expect(read).toEqual(order);
    expect(OPERATIONS.listOrders.result.safeParse(order).success).toBe(true);
  });

  it('refuses an order whose required field is missing or of the wrong type, naming it as zod does', async () => {
    const broken = { ...order, id: 'ord_2', created_at: 5 };
    const api = await start([
      { status: 200, json: { object: 'list', data: [order, broken], has_more: false } },
      { status: 200, json: { ...order, lines: [{ sku: 'A-1', quantity: 1.5 }] } },
      { status: 200, json: { ...order, id: undefined } },
    ]);
    await expect(collect(api.call(ENDPOINTS.listOrders))).rejects.toThrow(
      'unexpected answer to GET /orders: data[1].created_at: Invalid input: expected string, received number; check --base-url, or see the whole answer with --debug',
    );
    await expect(api.call(ENDPOINTS.getOrder, { id: 'ord_1' })).rejects.toThrow(
      'unexpected answer to GET /orders/ord_1: lines[0].quantity: Invalid input: expected int, received number;',
    );
    await expect(api.call(ENDPOINTS.getOrder, { id: 'ord_1' })).rejects.toThrow(
      'unexpected answer to GET /orders/ord_1: id: Invalid input: expected string, received undefined;',
    );
  });
});

describe('ApiClient.request', () => {
  it('types the body with a tolerant schema and reports a mismatch by field', async () => {
    const api = await start([
      { status: 200, json: { id: 'p', price: '2.50', new_field: 1 } },
      { status: 200, json: { id: 3 } },
    ]);
    const { body } = await api.request({ method: 'GET', path: '/products/p' }, Item);
    expect(body.price).toBe('2.50');
    await expect(api.request({ method: 'GET', path: '/products/q' }, Item)).rejects.toThrow(
      /unexpected answer to GET \/products\/q: id: /,
    );
  });

  it('tells what the pacer learnt from the rate-limit headers', async () => {
    const headers = { 'x-ratelimit-limit': '80', 'x-ratelimit-remaining': '79', 'x-ratelimit-reset': '0' };
    const api = await start([{ status: 200, headers, json: {} }]);
    await api.request({ method: 'GET', path: '/products' });
    expect(api.pacing()).toMatchObject({ bucket: 80, drainPerSecond: 4, inFlight: 0 });
  });
});

describe('ApiClient.live', () => {
  it("is true for a live key only: a test key's writes are simulated", async () => {
    const live = new ApiClient({ baseUrl: 'http://127.0.0.1:9', apiKey: 'svc_live_abc123' });
    const test = new ApiClient({ baseUrl: 'http://127.0.0.1:9', apiKey: 'svc_test_abc123' });
    const none = new ApiClient({ baseUrl: 'http://127.0.0.1:9' });
    expect([live.live, test.live, none.live]).toEqual([true, false, false]);
    await Promise.all([live.close(), test.close(), none.close()]);
  });
});
