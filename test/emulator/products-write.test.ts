import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BatchResult, Product } from '../../src/contract/schemas/index.js';
import { call, get } from '../helpers/service-api.js';
import { startTestEmulator, type TestEmulator } from './helpers.js';

const PNG_BASE64 = readFileSync(new URL('../fixtures/products/pixel.png', import.meta.url)).toString(
  'base64',
);

/** A dense two-by-two matrix of variants with the given SKU prefix. */
function shirt(prefix: string, title = `Shirt ${prefix}`) {
  const variants = [];
  for (const size of ['S', 'M'])
    for (const color of ['Red', 'Blue'])
      variants.push({
        sku: `${prefix}-${size}-${color}`,
        price: '10.00',
        quantity: 3,
        options: { Size: size, Color: color },
      });
  return { title, variants };
}

describe('product writes', () => {
  let t: TestEmulator;

  const post = (path: string, body: unknown, key?: string, headers?: Record<string, string>) =>
    call(t.emulator, 'POST', path, { body, key, headers });
  const patch = (id: string, body: unknown, key?: string) =>
    call(t.emulator, 'PATCH', `/products/${id}`, { body, key });
  const events = (type: string) =>
    [...t.emulator.store.events.values()].filter((event) => event.type === type);

  beforeAll(async () => {
    t = await startTestEmulator({ rateLimit: false, channelDelayMs: 1_000 });
  });
  beforeEach(() => t.emulator.reset());
  afterAll(() => t.emulator.close());

  it('POST /products creates a product (201), emits product.updated and counts one write', async () => {
    const before = events('product.updated').length;
    const created = await post('/products', {
      ...shirt('NEW'),
      brand: 'Acme',
      images: [{ url: 'https://example.com/a.png' }],
    });
    expect(created.status).toBe(201);
    const product = Product.parse(created.body);
    expect(product).toMatchObject({ object: 'product', title: 'Shirt NEW', brand: 'Acme', currency: 'USD' });
    expect(product.variants?.map((v) => v.sku)).toEqual([
      'NEW-S-Red',
      'NEW-S-Blue',
      'NEW-M-Red',
      'NEW-M-Blue',
    ]);
    expect(product.images?.[0].url).toMatch(/^https:\/\/cdn\.emulator\.invalid\/images\/img_\w+\.png$/);
    expect((await get(t.emulator, `/products/${product.id}`)).body.id).toBe(product.id);
    expect(events('product.updated')).toHaveLength(before + 1);
    expect(t.emulator.writeQuotaUsed()).toBe(1);
  });

  it('refuses a sparse option matrix with 422 variant_matrix_incomplete naming the missing combinations', async () => {
    const sparse = shirt('SPARSE');
    sparse.variants = sparse.variants.filter((v) => v.sku !== 'SPARSE-M-Blue');
    const answer = await post('/products', sparse);
    expect(answer.status).toBe(422);
    expect(answer.body.error).toMatchObject({ code: 'variant_matrix_incomplete', param: 'variants' });
    expect(answer.body.error.message).toContain('Color=Blue, Size=M');
    expect(t.emulator.store.locateSku('SPARSE-S-Red')).toBeUndefined();
    expect(t.emulator.writeQuotaUsed()).toBe(0);
  });

  it('refuses a SKU that another product holds with 422 validation_failed naming the variant', async () => {
    const taken = t.emulator.store.allSkus()[0];
    const answer = await post('/products', { title: 'Clash', variants: [{ sku: 'FREE-1' }, { sku: taken }] });
    expect(answer.status).toBe(422);
    expect(answer.body.error).toMatchObject({ code: 'validation_failed', param: 'variants[1].sku' });
    expect(answer.body.error.message).toContain(t.emulator.store.locateSku(taken)?.product.id);
  });

  it('PATCH keeps known images untouched, hosts new ones (URL or base64), drops left-out ones, in order', async () => {
    const product = [...t.emulator.store.products.values()].find((p) => p.images.length >= 2)!;
    const [first, second] = product.images;
    const answer = await patch(product.id, {
      images: [
        { url: 'https://example.com/new.webp', alt: 'new' },
        { id: second.id },
        { base64: PNG_BASE64 },
      ],
    });
    expect(answer.status).toBe(200);
    const images = Product.parse(answer.body).images!;
    expect(images).toHaveLength(3);
    expect(images.map((i) => i.position)).toEqual([0, 1, 2]);
    expect(images[1]).toMatchObject({ id: second.id, url: second.url });
    expect(images[0].id).not.toBe(first.id);
    expect(images[0].url).toMatch(/\.webp$/);
    expect(images[2].url).toMatch(/\.png$/);
    expect(images.some((i) => i.id === first.id)).toBe(false);
    // Variant references to a dropped image are dropped too.
    const stored = t.emulator.store.products.get(product.id)!;
    for (const variant of stored.variants)
      for (const ref of variant.images) expect(ref.image_id).not.toBe(first.id);
  });

  it('PATCH without images leaves them unchanged and updates every other field', async () => {
    const product = [...t.emulator.store.products.values()][0];
    const before = structuredClone(product.images);
    const fields = {
      title: 'Renamed',
      description: 'd',
      brand: 'b',
      category: 'c',
      short_description: 's',
      vat_rate: 7,
      mpn: 'M1',
      weight: { value: '1.5', unit: 'oz' },
      dimensions: { length: '1', width: '2', height: '3', unit: 'in' },
      tags: ['x'],
      currency: 'EUR',
      status: 'draft',
    };
    const answer = await patch(product.id, fields);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject(fields);
    expect(answer.body.images).toEqual(before);
  });

  it('PATCH refuses a 21st image and an unknown image id before changing anything', async () => {
    const product = [...t.emulator.store.products.values()].find((p) => p.images.length > 0)!;
    const many = Array.from({ length: 21 }, (_, i) => ({ url: `https://example.com/${i}.jpg` }));
    const tooMany = await patch(product.id, { images: many });
    expect(tooMany.status).toBe(422);
    expect(tooMany.body.error).toMatchObject({ code: 'validation_failed', param: 'images' });
    const unknown = await patch(product.id, { images: [{ id: 'img_nope' }] });
    expect(unknown.status).toBe(422);
    expect(unknown.body.error.param).toBe('images[0].id');
    expect(t.emulator.store.products.get(product.id)!.images).toEqual(product.images);
  });

  it('PATCH with a stale expected_updated_at is 412 precondition_failed naming when it changed', async () => {
    const product = [...t.emulator.store.products.values()][0];
    const seen = product.updated_at;
    const ok = await patch(product.id, { title: 'First', expected_updated_at: seen });
    expect(ok.status).toBe(200);
    expect(Date.parse(ok.body.updated_at)).toBeGreaterThan(Date.parse(seen));
    const stale = await patch(product.id, { title: 'Second', expected_updated_at: seen });
    expect(stale.status).toBe(412);
    expect(stale.body.error).toMatchObject({ code: 'precondition_failed', param: 'expected_updated_at' });
    expect(stale.body.error.message).toContain(ok.body.updated_at);
    expect(t.emulator.store.products.get(product.id)!.title).toBe('First');
  });

  it('PATCH answers a sync block whose operation completes after the channel delay', async () => {
    const product = [...t.emulator.store.products.values()].find((p) =>
      t.emulator.store.listingsOf(p.id).some((l) => l.status === 'listed'),
    )!;
    const answer = await patch(product.id, { title: 'Synced' });
    const sync = answer.body.sync;
    expect(sync.operation_id).toMatch(/^op_/);
    expect(sync.channels.length).toBeGreaterThan(0);
    expect(sync.channels.every((c: { status: string }) => c.status === 'pending')).toBe(true);
    t.clock.advance(1_000);
    expect((await get(t.emulator, `/operations/${sync.operation_id}`)).body.status).toBe('succeeded');
  });

  it('a test key is validated and simulated: same shape, nothing kept, no event, no quota', async () => {
    const product = [...t.emulator.store.products.values()].find(
      (p) => t.emulator.store.listingsOf(p.id).length > 0,
    )!;
    const eventsBefore = t.emulator.store.events.size;
    const test = t.emulator.keys.test;
    const updated = await patch(product.id, { title: 'Simulated' }, test);
    expect(updated.status).toBe(200);
    expect(updated.body.title).toBe('Simulated');
    expect(updated.body.sync.channels.every((c: { status: string }) => c.status === 'simulated')).toBe(true);
    expect(t.emulator.store.products.get(product.id)!.title).not.toBe('Simulated');
    const created = await post('/products', shirt('TEST'), test);
    expect(created.status).toBe(201);
    expect(t.emulator.store.products.has(created.body.id)).toBe(false);
    const deleted = await call(t.emulator, 'DELETE', `/products/${product.id}`, { key: test });
    expect(deleted.body).toEqual({ id: product.id, object: 'product', deleted: true });
    expect(t.emulator.store.products.has(product.id)).toBe(true);
    const invalid = await patch(
      product.id,
      { images: Array.from({ length: 21 }, () => ({ url: 'https://e.com/a.jpg' })) },
      test,
    );
    expect(invalid.status).toBe(422);
    expect(t.emulator.store.events.size).toBe(eventsBefore);
    expect(t.emulator.writeQuotaUsed()).toBe(0);
  });

  it('DELETE removes the product, delists its listings, emits product.deleted and frees its SKUs', async () => {
    const product = [...t.emulator.store.products.values()].find((p) =>
      t.emulator.store.listingsOf(p.id).some((l) => l.status === 'listed'),
    )!;
    const sku = product.variants[0].sku;
    const answer = await call(t.emulator, 'DELETE', `/products/${product.id}`);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ id: product.id, object: 'product', deleted: true });
    expect((await get(t.emulator, `/products/${product.id}`)).status).toBe(404);
    expect((await call(t.emulator, 'DELETE', `/products/${product.id}`)).status).toBe(404);
    expect(t.emulator.store.listingsOf(product.id).every((l) => l.status === 'delisted')).toBe(true);
    const deleted = events('product.deleted');
    expect(deleted.at(-1)?.data.object).toMatchObject({ id: product.id });
    expect((await post('/products', { title: 'Reuse', variants: [{ sku }] })).status).toBe(201);
  });

  it('needs products:write: a read-only key gets 403 scope_missing', async () => {
    const answer = await post('/products', shirt('RO'), t.emulator.keys.read_only);
    expect(answer.status).toBe(403);
    expect(answer.body.error.code).toBe('scope_missing');
  });

  it('repeats a create with the same Idempotency-Key without making a second product', async () => {
    const headers = { 'idempotency-key': 'create-once' };
    const first = await post('/products', shirt('IDEM'), undefined, headers);
    const again = await post('/products', shirt('IDEM'), undefined, headers);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body.id).toBe(first.body.id);
    expect([...t.emulator.store.products.values()].filter((p) => p.title === 'Shirt IDEM')).toHaveLength(1);
    expect(t.emulator.writeQuotaUsed()).toBe(1);
  });
});

describe('POST /products/batch', () => {
  let t: TestEmulator;
  const batch = (items: unknown[], key?: string) =>
    call(t.emulator, 'POST', '/products/batch', { body: { items }, key });

  beforeAll(async () => {
    t = await startTestEmulator({ rateLimit: false });
  });
  beforeEach(() => t.emulator.reset());
  afterAll(() => t.emulator.close());

  it('creates, updates by variant SKU and fails per item, reporting each index; one write of quota', async () => {
    const existing = [...t.emulator.store.products.values()].find((p) => p.variants.length === 1)!;
    const sparse = shirt('HOLE');
    sparse.variants.pop();
    const answer = await batch([
      shirt('A'),
      { title: 'Updated by SKU', variants: [{ sku: existing.variants[0].sku, price: '99.00' }] },
      sparse,
    ]);
    expect(answer.status).toBe(200);
    const result = BatchResult.parse(answer.body);
    expect(result.object).toBe('batch_result');
    expect(result.data.map((item) => [item.index, item.status])).toEqual([
      [0, 'created'],
      [1, 'updated'],
      [2, 'failed'],
    ]);
    expect(result.data[1].id).toBe(existing.id);
    expect(t.emulator.store.products.get(existing.id)).toMatchObject({ title: 'Updated by SKU' });
    expect(t.emulator.store.locateSku(existing.variants[0].sku)?.variant.price).toBe('99.00');
    expect(result.data[2].error).toMatchObject({ code: 'variant_matrix_incomplete' });
    expect(result.data[2].error?.message).toContain('Color=Blue, Size=M');
    expect(t.emulator.writeQuotaUsed()).toBe(1);
  });

  it('an item whose SKUs belong to two products fails; a repeated upsert updates instead of duplicating', async () => {
    const [a, b] = [...t.emulator.store.products.values()];
    const split = await batch([
      { title: 'Both', variants: [{ sku: a.variants[0].sku }, { sku: b.variants[0].sku }] },
    ]);
    expect(split.body.data[0]).toMatchObject({ status: 'failed', error: { code: 'validation_failed' } });
    const first = await batch([shirt('TWICE')]);
    const second = await batch([shirt('TWICE')]);
    expect(second.body.data[0]).toMatchObject({ status: 'updated', id: first.body.data[0].id });
  });

  it('refuses more than 100 items with 400 batch_too_large and an empty batch with 400', async () => {
    const items = Array.from({ length: 101 }, (_, i) => ({ title: `P${i}` }));
    const tooMany = await batch(items);
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.error.code).toBe('batch_too_large');
    expect((await batch([])).status).toBe(400);
    expect(t.emulator.store.products.size).toBe(60);
  });

  it('rejects the whole batch when an item is malformed (param names it)', async () => {
    const answer = await batch([shirt('OK'), { title: 'Bad', variants: [{ sku: 'X', price: 12 }] }]);
    expect(answer.status).toBe(400);
    expect(answer.body.error.param).toBe('items[1].variants[0].price');
    expect(t.emulator.store.locateSku('OK-S-Red')).toBeUndefined();
  });

  it('a test key gets the outcomes and nothing is kept', async () => {
    const answer = await batch([shirt('SIM')], t.emulator.keys.test);
    expect(answer.body.data[0].status).toBe('created');
    expect(t.emulator.store.locateSku('SIM-S-Red')).toBeUndefined();
  });
});
