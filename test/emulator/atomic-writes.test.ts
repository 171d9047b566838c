/**
 * No 5xx and no half-applied batch: an empty option name or value is 422 `validation_failed`
 * naming the field (POST, PATCH, batch; live and test keys), a batch item applies whole or
 * fails on its own, and a request that fails unexpectedly commits nothing, so a retry of it
 * applies its writes once.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { call, get } from '../helpers/service-api.js';
import { startTestEmulator, type TestEmulator } from './helpers.js';

const EMPTY_NAME = { title: 't', variants: [{ sku: 'A1', options: { '': '' } }, { sku: 'B1' }] };

describe('writes are all or nothing', () => {
  let t: TestEmulator;
  const anyProduct = () => [...t.emulator.store.products.keys()][0] as string;

  beforeAll(async () => {
    t = await startTestEmulator({ rateLimit: false, products: 10, orders: 10 });
  });
  beforeEach(() => t.emulator.reset());
  afterAll(() => t.emulator.close());

  it.each(['live', 'test'] as const)(
    'refuses an empty option name 422 on POST and PATCH (%s key)',
    async (name) => {
      const key = t.emulator.keys[name];
      const created = await call(t.emulator, 'POST', '/products', { key, body: EMPTY_NAME });
      expect(created.status).toBe(422);
      expect(created.body.error).toMatchObject({ code: 'validation_failed', param: 'variants[0].options' });
      const patched = await call(t.emulator, 'PATCH', `/products/${anyProduct()}`, {
        key,
        body: { variants: EMPTY_NAME.variants },
      });
      expect(patched.status).toBe(422);
      expect(patched.body.error.param).toBe('variants[0].options');
    },
  );

  it('refuses an empty option value, naming the option', async () => {
    const answer = await call(t.emulator, 'POST', '/products', {
      body: { title: 't', variants: [{ sku: 'A1', options: { Size: '' } }] },
    });
    expect(answer.status).toBe(422);
    expect(answer.body.error).toMatchObject({ code: 'validation_failed', param: 'variants[0].options.Size' });
  });

  it('answers a batch of 3 with the bad item failed on its own and nothing of it in the store', async () => {
    const before = t.emulator.store.counts();
    const answer = await call(t.emulator, 'POST', '/products/batch', {
      body: {
        items: [
          { title: 'first', variants: [{ sku: 'OK-1' }] },
          EMPTY_NAME,
          { title: 'third', variants: [{ sku: 'OK-3' }] },
        ],
      },
    });
    expect(answer.status).toBe(200);
    expect(answer.body.data.map((item: { status: string }) => item.status)).toEqual([
      'created',
      'failed',
      'created',
    ]);
    expect(answer.body.data[1].error).toMatchObject({
      code: 'validation_failed',
      param: 'items[1].variants[0].options',
    });
    const { store } = t.emulator;
    expect(store.locateSku('A1')).toBeUndefined();
    expect(store.locateSku('B1')).toBeUndefined();
    expect(store.counts().products).toBe(before.products + 2);
  });

  it('leaves the store unchanged by a batch of 3 that a test key sends', async () => {
    const before = t.emulator.store.revision();
    const answer = await call(t.emulator, 'POST', '/products/batch', {
      key: t.emulator.keys.test,
      body: { items: [{ title: 'a', variants: [{ sku: 'T-1' }] }, EMPTY_NAME, { title: 'c' }] },
    });
    expect(answer.status).toBe(200);
    expect(answer.body.data[1].status).toBe('failed');
    expect(t.emulator.store.revision()).toBe(before);
  });

  it('rolls back every item of a batch that fails unexpectedly, and a retry applies them once', async () => {
    const { store } = t.emulator;
    const before = { products: store.counts().products, events: store.counts().events };
    const original = store.putProduct.bind(store);
    let calls = 0;
    // A failure no rule foresees, on the third item, after two were written.
    store.putProduct = (product) => {
      calls += 1;
      if (calls === 3) throw new TypeError('boom');
      original(product);
    };
    const items = [1, 2, 3].map((n) => ({ title: `p${n}`, variants: [{ sku: `RB-${n}` }] }));
    const headers = { 'idempotency-key': 'rollback-1' };
    try {
      const failed = await call(t.emulator, 'POST', '/products/batch', { body: { items }, headers });
      expect(failed.status).toBe(500);
      expect(store.locateSku('RB-1')).toBeUndefined();
      expect(store.counts().products).toBe(before.products);
      expect(store.counts().events).toBe(before.events);
    } finally {
      store.putProduct = original;
    }
    const retried = await call(t.emulator, 'POST', '/products/batch', { body: { items }, headers });
    expect(retried.status).toBe(200);
    expect(retried.headers['idempotent-replayed']).toBeUndefined();
    expect(store.counts().products).toBe(before.products + 3);
    expect((await get(t.emulator, `/products/${store.locateSku('RB-1')?.product.id}`)).status).toBe(200);
  });

  it('refuses an option named __proto__, a status outside its values and the SKU ..', async () => {
    const proto = await call(t.emulator, 'POST', '/products', {
      raw: '{"title":"t","variants":[{"sku":"P1","options":{"__proto__":"x"}}]}',
    });
    expect(proto.status).toBe(400);
    expect(proto.body.error).toMatchObject({
      code: 'parameter_invalid',
      param: 'variants[0].options.__proto__',
    });
    const status = await call(t.emulator, 'POST', '/products', { body: { title: 't', status: 'gone' } });
    expect(status.status).toBe(400);
    expect(status.body.error.param).toBe('status');
    const dots = await call(t.emulator, 'POST', '/products', {
      body: { title: 't', variants: [{ sku: '..' }] },
    });
    expect(dots.status).toBe(422);
    expect(dots.body.error).toMatchObject({ code: 'validation_failed', param: 'variants[0].sku' });
  });
});
