/**
 * Bodies are JSON or refused: a request body declared as anything but `application/json`
 * (parameters such as charset allowed, the type compared case-insensitively) is 400
 * `body_invalid`, and nothing is created or changed. A body without a declared type is read as JSON.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { call } from '../helpers/service-api.js';
import { startTestEmulator, type TestEmulator } from './helpers.js';

describe('the content type of a request body', () => {
  let t: TestEmulator;
  const product = { title: 'Typed mug', variants: [{ sku: 'TYPED-1', price: '5.00' }] };

  beforeAll(async () => {
    t = await startTestEmulator({ rateLimit: false });
  });
  beforeEach(() => t.emulator.reset());
  afterAll(() => t.emulator.close());

  it.each([
    'text/plain',
    'text/plain; charset=utf-8',
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=x',
    'application/merge-patch+json',
    'application/jsonp',
  ])('refuses %s with 400 body_invalid and creates nothing', async (type) => {
    const products = t.emulator.store.products.size;
    const events = t.emulator.store.events.size;
    const answer = await call(t.emulator, 'POST', '/products', {
      body: product,
      contentType: type,
    });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatchObject({ type: 'invalid_request_error', code: 'body_invalid' });
    expect(answer.body.error.message).toMatch(/application\/json/);
    expect(t.emulator.store.products.size).toBe(products);
    expect(t.emulator.store.events.size).toBe(events);
    expect(t.emulator.writeQuotaUsed()).toBe(0);
  });

  it('refuses a PATCH with a form body and leaves the stock as it was', async () => {
    const [variant] = [...t.emulator.store.products.values()][0].variants;
    const answer = await call(t.emulator, 'PATCH', `/inventory/${encodeURIComponent(variant.sku)}`, {
      raw: 'quantity=3',
      contentType: 'application/x-www-form-urlencoded',
    });
    expect(answer.status).toBe(400);
    expect(answer.body.error.code).toBe('body_invalid');
    expect(t.emulator.store.locateSku(variant.sku)?.variant.quantity).toBe(variant.quantity);
  });

  it.each(['application/json', 'application/json; charset=utf-8', 'Application/JSON;charset=UTF-8'])(
    'takes %s',
    async (type) => {
      const answer = await call(t.emulator, 'POST', '/products', { body: product, contentType: type });
      expect(answer.status).toBe(201);
    },
  );

  it('reads a body without a declared type as JSON, and ignores the type of a request without a body', async () => {
    const untyped = await call(t.emulator, 'POST', '/products', {
      raw: JSON.stringify(product),
      contentType: null,
    });
    expect(untyped.status).toBe(201);
    const endpoint = await call(t.emulator, 'POST', '/webhook_endpoints', {
      body: { url: 'https://hooks.example.com/in', enabled_events: ['*'] },
    });
    const removed = await call(t.emulator, 'DELETE', `/webhook_endpoints/${endpoint.body.id}`, {
      headers: { 'content-type': 'text/plain' },
    });
    expect(removed.status).toBe(200);
  });
});
