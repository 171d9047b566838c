/**
 * Every answer of a full emulator run conforms to the committed docs/openapi.json: a crawl of
 * every list, every read, a write of each kind with a live and a test key, the errors of the
 * contract's table, the simulations' work (channels, arrivals, payments) and the events it
 * leaves. The run also has to reach every operation's success status, or it proves too little.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FILE_MAX_BYTES } from '../../src/contract/contract.js';
import { API_OPERATIONS } from '../../src/contract/operations.js';
import { type Answer, type CallOptions, call } from '../helpers/service-api.js';
import { startTestEmulator, type TestEmulator } from './helpers.js';
import { OpenApiCheck } from './openapi-check.js';

type Method = 'GET' | 'HEAD' | 'POST' | 'PATCH' | 'DELETE';
const MINUTE = 60_000;
const png = readFileSync(new URL('../fixtures/products/pixel.png', import.meta.url)).toString('base64');

describe('a full emulator run against docs/openapi.json', () => {
  let t: TestEmulator;
  const check = new OpenApiCheck();
  const problems: string[] = [];
  let answers = 0;

  /** One request, its answer checked against the document. */
  async function send(method: Method, path: string, options: CallOptions = {}): Promise<Answer> {
    const answer = await call(t.emulator, method, path, options);
    answers += 1;
    problems.push(...check.problems({ method, path, ...answer }));
    return answer;
  }

  /** Every page of a list, each checked. */
  // biome-ignore lint/suspicious/noExplicitAny: list items are arbitrary JSON.
  async function crawlAll(path: string, options: CallOptions = {}): Promise<any[]> {
    // biome-ignore lint/suspicious/noExplicitAny: list items are arbitrary JSON.
    const items: any[] = [];
    let cursor: string | null = null;
    const separator = path.includes('?') ? '&' : '?';
    do {
      const page = await send(
        'GET',
        `${path}${separator}limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
        options,
      );
      expect(page.status, `${path}: ${JSON.stringify(page.body)}`).toBe(200);
      items.push(...page.body.data);
      cursor = page.body.has_more ? page.body.next_cursor : null;
    } while (cursor);
    return items;
  }

  const settle = async (ms: number) => {
    t.clock.advance(ms);
    await send('GET', '/health', { key: null });
  };

  beforeAll(async () => {
    t = await startTestEmulator({
      products: 30,
      orders: 200,
      bucket: 100_000,
      drainPerSecond: 1_000,
      channelDelayMs: 1_000,
      channelRateLimitShare: 0.3,
      channelFailureShare: 0.1,
      orderArrivalPerMinute: 2,
      orderUnpaidShare: 0.5,
      orderPaymentDelayMs: 5 * MINUTE,
    });
  });
  afterAll(() => t.emulator.close());

  it('the public routes, every list and every read', async () => {
    for (const path of ['/status', '/health', '/openapi.json']) {
      await send('GET', path, { key: null });
      await send('HEAD', path, { key: null });
    }
    const accounts = await crawlAll('/channel_accounts');
    for (const account of accounts) {
      await send('GET', `/channel_accounts/${account.id}`);
      await crawlAll(`/channel_accounts/${account.id}/policies`);
      const categories = await crawlAll(`/channel_accounts/${account.id}/categories`);
      await crawlAll(
        `/channel_accounts/${account.id}/categories?query=a&parent_id=${categories[0]?.id ?? ''}`,
      );
      for (const category of categories.filter((c) => c.leaf).slice(0, 3))
        await send('GET', `/channel_accounts/${account.id}/categories/${category.id}/attribute_schema`);
    }
    const products = await crawlAll('/products?updated_after=2020-01-01T00:00:00Z');
    const listings = await crawlAll('/listings');
    await crawlAll('/listings?status=error&error_code=photo_required_for_channel');
    const orders = await crawlAll('/orders');
    await crawlAll('/orders?status=awaiting_shipment&created_after=2020-01-01T00:00:00Z');
    const operations = await crawlAll('/operations');
    await crawlAll('/operations?status=failed');
    await crawlAll('/events');
    await crawlAll('/events?type=order.*');
    await crawlAll('/webhook_endpoints');
    for (const product of products.slice(0, 5)) await send('GET', `/products/${product.id}`);
    for (const listing of listings.slice(0, 5)) await send('GET', `/listings/${listing.id}`);
    for (const order of orders.slice(0, 5)) await send('GET', `/orders/${order.id}`);
    for (const operation of operations.slice(0, 5)) await send('GET', `/operations/${operation.id}`);
    expect(new Set(orders.map((order) => order.status)).size).toBeGreaterThan(3);
  });

  it('a write of each kind, with a live key and a test key', async () => {
    const { live, test } = t.emulator.keys;
    const accounts = (await send('GET', '/channel_accounts')).body.data;
    const etsy = accounts.find((a: { channel: string }) => a.channel === 'etsy').id;
    const shopify = accounts.find((a: { channel: string }) => a.channel === 'shopify').id;
    for (const [key, tag] of [
      [live, 'L'],
      [test, 'T'],
    ] as const) {
      const file = await send('POST', '/files', { key, body: { base64: png, filename: 'mug.png' } });
      expect(file.status).toBe(201);
      const created = await send('POST', '/products', {
        key,
        body: {
          title: `Conformance mug ${tag}`,
          brand: 'Acme',
          images: [{ url: file.body.url, alt: 'front' }],
          variants: [
            { sku: `CONF-${tag}-S`, price: '12.00', msrp: '15.00', quantity: 3, options: { size: 'S' } },
            {
              sku: `CONF-${tag}-M`,
              price: '12.00',
              quantity: 4,
              barcode: '0123456789012',
              options: { size: 'M' },
            },
          ],
        },
      });
      expect(created.status).toBe(201);
      const product = key === live ? created.body.id : [...t.emulator.store.products.keys()][0];
      const updated = await send('PATCH', `/products/${product}`, {
        key,
        body: {
          description: 'Stoneware',
          expected_updated_at: new Date(t.clock.now() + 60_000).toISOString(),
        },
        headers: { 'idempotency-key': `patch-${tag}` },
      });
      expect(updated.status).toBe(200);
      await send('PATCH', `/products/${product}`, {
        key,
        body: {
          description: 'Stoneware',
          expected_updated_at: new Date(t.clock.now() + 60_000).toISOString(),
        },
        headers: { 'idempotency-key': `patch-${tag}` },
      });
      const batch = await send('POST', '/products/batch', {
        key,
        body: {
          items: [
            { title: `Batch ${tag}`, variants: [{ sku: `BATCH-${tag}`, price: '3.00' }] },
            { title: `Again ${tag}`, variants: [{ sku: `CONF-${tag}-S`, price: '11.00' }] },
            { title: `Clash ${tag}`, variants: [{ sku: 'X', options: { a: '1' } }, { sku: 'X' }] },
          ],
        },
      });
      expect(batch.status).toBe(200);
      const listing = await send('POST', '/listings', {
        key,
        body: { product_id: product, channel_account_id: shopify },
      });
      expect(listing.status).toBe(201);
      await send('POST', '/listings/batch', {
        key,
        body: {
          items: [
            { product_id: product, channel_account_id: etsy, overrides: { title: 'On Etsy' } },
            { product_id: 'prod_nope', channel_account_id: etsy },
          ],
        },
      });
      const listingId = key === live ? listing.body.id : [...t.emulator.store.listings.keys()][0];
      await send('PATCH', `/listings/${listingId}`, { key, body: { attributes: { color: 'Black' } } });
      const sku = key === live ? `CONF-${tag}-S` : t.emulator.store.allSkus()[0];
      expect(
        (await send('PATCH', `/inventory/${encodeURIComponent(sku)}`, { key, body: { quantity: 9 } })).status,
      ).toBe(200);
      await send('POST', '/inventory/batch', {
        key,
        body: {
          items: [
            { sku, quantity: 8, price: '10.50' },
            { sku: 'NO-SUCH-SKU', quantity: 1 },
          ],
        },
      });
      const shippable = [...t.emulator.store.orders.values()].filter((o) => o.status === 'awaiting_shipment');
      const order = shippable[0];
      expect(
        (
          await send('POST', `/orders/${order?.id}/fulfillment`, {
            key,
            body: { tracking: { number: `1Z${tag}`, carrier: 'UPS', url: 'https://track.example.com/1Z' } },
          })
        ).status,
      ).toBe(200);
      const endpoint = await send('POST', '/webhook_endpoints', {
        key,
        body: {
          url: 'https://hooks.example.com/svc',
          enabled_events: ['order.created', 'product.updated'],
          description: 'books',
        },
      });
      expect(endpoint.status).toBe(201);
      if (key === live) {
        await send('GET', `/webhook_endpoints/${endpoint.body.id}`, { key });
        await send('PATCH', `/webhook_endpoints/${endpoint.body.id}`, { key, body: { status: 'disabled' } });
        await crawlAll('/webhook_endpoints', { key });
        await send('DELETE', `/webhook_endpoints/${endpoint.body.id}`, { key });
      }
      await send('DELETE', `/listings/${listingId}`, { key });
      await send('GET', '/operations', { key });
    }
    const doomed = await send('POST', '/products', { body: { title: 'Short-lived' } });
    expect((await send('DELETE', `/products/${doomed.body.id}`)).status).toBe(200);
  });

  it("the contract's errors", async () => {
    const { read_only, lapsed } = t.emulator.keys;
    const product = [...t.emulator.store.products.values()][0];
    await send('GET', '/orders', { key: null });
    await send('GET', '/orders', { key: 'svc_live_unknownkey000000000000' });
    await send('GET', '/orders', { key: 'not a key' });
    await send('POST', '/products', { key: read_only, body: { title: 'No' } });
    await send('GET', '/products', { key: lapsed });
    await send('GET', '/products/prod_nope');
    await send('GET', '/channel_accounts/chac_nope/categories');
    await send('GET', '/orders?limit=0');
    await send('GET', '/events?cursor=!!');
    await send('GET', '/listings?updated_after=yesterday');
    await send('POST', '/products', { body: { title: 'Typed' }, contentType: 'text/plain' });
    await send('POST', '/products', { raw: '{"title":', contentType: 'application/json' });
    await send('POST', '/products', { body: { variants: [] } });
    await send('POST', '/products', {
      body: {
        title: 'x',
        variants: [
          { sku: 'A', options: { size: 'S', color: 'Red' } },
          { sku: 'B', options: { size: 'M', color: 'Blue' } },
        ],
      },
    });
    await send('POST', '/products', { body: { title: 'x', variants: [{ sku: product.variants[0]?.sku }] } });
    await send('PATCH', `/products/${product.id}`, {
      body: { title: 'Stale', expected_updated_at: '2001-01-01T00:00:00Z' },
    });
    await send('PATCH', `/products/${product.id}`, { body: {} });
    await send('POST', '/files', { body: { base64: Buffer.from('not an image').toString('base64') } });
    await send('POST', '/files', { body: { base64: '***' } });
    await send('POST', '/files', { body: { base64: Buffer.alloc(FILE_MAX_BYTES + 1).toString('base64') } });
    await send('PATCH', '/inventory/NO-SUCH-SKU', { body: { quantity: 1 } });
    await send('PATCH', `/inventory/${encodeURIComponent(product.variants[0]?.sku ?? '')}`, { body: {} });
    await send('POST', '/inventory/batch', {
      body: { items: Array.from({ length: 101 }, (_, n) => ({ sku: `S${n}`, quantity: 1 })) },
    });
    await send('POST', '/listings', { body: { product_id: 'prod_nope', channel_account_id: 'chac_nope' } });
    const listed = [...t.emulator.store.listings.values()].find((l) => l.status === 'listed');
    await send('POST', '/listings', {
      body: { product_id: listed?.product_id, channel_account_id: listed?.channel_account_id },
    });
    await send('DELETE', `/listings/${listed?.id}`);
    await send('PATCH', `/listings/${listed?.id}`, { body: {} });
    const shipped = [...t.emulator.store.orders.values()].find((o) => o.status === 'shipped');
    await send('POST', `/orders/${shipped?.id}/fulfillment`, {
      body: { tracking: { number: '1', carrier: 'UPS' } },
    });
    await send('POST', '/webhook_endpoints', {
      body: { url: 'http://example.com/hook', enabled_events: ['*'] },
    });
    await send('POST', '/webhook_endpoints', {
      body: { url: 'https://example.com/hook', enabled_events: ['nope'] },
    });
    await send('PATCH', '/webhook_endpoints/we_nope', { body: { status: 'enabled' } });
    const reused = { headers: { 'idempotency-key': 'reused-key' } };
    await send('POST', '/products', { ...reused, body: { title: 'First' } });
    await send('POST', '/products', { ...reused, body: { title: 'Second' } });
    await send('DELETE', '/products/prod_nope', { headers: { 'idempotency-key': '' } });
    const tiny = t.emulator.createKey({ bucket: 1, drainPerSecond: 0.001 });
    await send('GET', '/products', { key: tiny });
    await send('GET', '/products', { key: tiny });
    t.emulator.faults.inject({ path: '/orders', kind: 'internal_error' });
    await send('GET', '/orders');
    t.emulator.faults.inject({ path: '/products', kind: 'service_unavailable', retryAfter: 2 });
    await send('GET', '/products');
  });

  it('what the simulations leave: operations ended, orders arrived and paid, events of every type', async () => {
    for (let step = 0; step < 12; step++) await settle(10 * MINUTE);
    const orders = await crawlAll('/orders');
    expect(orders.some((order) => order.updated_at > order.created_at)).toBe(true);
    const operations = await crawlAll('/operations');
    const statuses = new Set(operations.map((operation) => operation.status));
    for (const status of ['succeeded', 'failed', 'partial']) expect(statuses).toContain(status);
    const events = await crawlAll('/events');
    expect(new Set(events.map((event) => event.type)).size).toBe(7);
    await crawlAll('/listings');
    await crawlAll('/products');
  });

  it('every answer conforms, and the run reached every operation', () => {
    expect(problems).toEqual([]);
    expect(answers).toBeGreaterThan(150);
    const missing = API_OPERATIONS.filter(
      (operation) => !check.seen.has(`${operation.method} ${operation.path} ${operation.status}`),
    ).map((operation) => operation.id);
    expect(missing).toEqual([]);
    const statuses = new Set([...check.seen].map((entry) => entry.split(' ').at(-1)));
    for (const status of ['400', '401', '403', '404', '409', '412', '413', '422', '429', '500', '503'])
      expect(statuses, `no answer with status ${status}`).toContain(status);
  });
});
