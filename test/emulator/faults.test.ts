import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { call, get } from '../helpers/service-api.js';
import { startTestEmulator, type TestEmulator } from './helpers.js';

describe('fault injection and the request log', () => {
  let t: TestEmulator;
  let sku: string;
  let path: string;

  beforeAll(async () => {
    t = await startTestEmulator({ rateLimit: false });
  });
  beforeEach(() => {
    t.emulator.reset();
    sku = t.emulator.store.allSkus()[3];
    path = `/inventory/${encodeURIComponent(sku)}`;
  });
  afterAll(() => t.emulator.close());

  const patch = (quantity: number, key = 'idem-1') =>
    call(t.emulator, 'PATCH', path, { body: { quantity }, headers: { 'idempotency-key': key } });

  it('answers 500, 503 and 429 with Retry-After to the next N matching requests, applying nothing', async () => {
    const before = t.emulator.store.inventoryBySku(sku)?.quantity;
    t.emulator.faults.inject({ method: 'PATCH', path: /^\/inventory\//, kind: 'internal_error', times: 2 });
    t.emulator.faults.inject({
      method: 'PATCH',
      path: /^\/inventory\//,
      kind: 'service_unavailable',
      retryAfter: 3,
    });
    t.emulator.faults.inject({
      method: 'PATCH',
      path: /^\/inventory\//,
      kind: 'rate_limited',
      retryAfter: 2,
    });
    expect(t.emulator.faults.pending()).toBe(4);
    expect((await patch(5)).status).toBe(500);
    expect((await patch(5)).status).toBe(500);
    const unavailable = await patch(5);
    expect(unavailable.status).toBe(503);
    expect(unavailable.body.error.code).toBe('service_unavailable');
    expect(unavailable.headers['retry-after']).toBe('3');
    const limited = await patch(5);
    expect(limited.status).toBe(429);
    expect(limited.headers['retry-after']).toBe('2');
    expect(t.emulator.store.inventoryBySku(sku)?.quantity).toBe(before);
    expect((await patch(5)).status).toBe(200);
    expect(t.emulator.store.inventoryBySku(sku)?.quantity).toBe(5);
    expect(t.emulator.idempotencyKeys({ route: 'PATCH /inventory/{sku}' })).toEqual(Array(5).fill('idem-1'));
  });

  it('matches only the method and path given', async () => {
    t.emulator.faults.inject({ method: 'PATCH', path: '/inventory/NOT-THIS-ONE', kind: 'internal_error' });
    t.emulator.faults.inject({ method: 'GET', path: '/rest/v1/orders', kind: 'internal_error' });
    expect((await patch(1)).status).toBe(200);
    expect((await get(t.emulator, '/orders/ord_x')).status).toBe(404);
    expect((await get(t.emulator, '/orders?limit=1')).status).toBe(500);
    expect(t.emulator.faults.pending()).toBe(1);
  });

  it('drops the connection before applying: the client errors and nothing changed', async () => {
    const before = t.emulator.store.inventoryBySku(sku)?.quantity;
    t.emulator.faults.inject({ path: path, kind: 'drop_before' });
    await expect(patch(123)).rejects.toThrow();
    expect(t.emulator.store.inventoryBySku(sku)?.quantity).toBe(before);
    const records = t.emulator.requests({ path });
    expect(records.map((r) => [r.route, r.status, r.fault])).toEqual([
      ['PATCH /inventory/{sku}', null, 'drop_before'],
    ]);
  });

  it('drops the connection after applying: changed, and a retry with the same key is replayed', async () => {
    t.emulator.faults.inject({ method: 'PATCH', path, kind: 'drop_after' });
    await expect(patch(321, 'after-drop')).rejects.toThrow();
    expect(t.emulator.store.inventoryBySku(sku)?.quantity).toBe(321);
    const retry = await patch(321, 'after-drop');
    expect(retry.status).toBe(200);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    const records = t.emulator.requests({ route: 'PATCH /inventory/{sku}' });
    expect(records.map((r) => [r.status, r.fault, r.replayed])).toEqual([
      [null, 'drop_after', false],
      [200, null, true],
    ]);
  });

  it('delays an answer by real time', async () => {
    t.emulator.faults.inject({ method: 'GET', path: '/health', kind: 'delay', delayMs: 150 });
    const started = performance.now();
    const answer = await call(t.emulator, 'GET', '/health', { key: null });
    expect(answer.status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);
  });

  it('counts requests per route and clears faults and the log on reset', async () => {
    await get(t.emulator, '/orders?limit=1');
    await get(t.emulator, '/orders?limit=2');
    await get(t.emulator, '/products?limit=1');
    expect(t.emulator.requests({ route: 'GET /orders' })).toHaveLength(2);
    expect(t.emulator.requests({ method: 'GET', status: 200 })).toHaveLength(3);
    t.emulator.faults.inject({ path: /./, kind: 'internal_error', times: 5 });
    t.emulator.reset();
    expect(t.emulator.faults.pending()).toBe(0);
    expect(t.emulator.requests()).toHaveLength(0);
  });
});
