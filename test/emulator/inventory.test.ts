import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { InventoryItem, Operation } from '../../src/contract/schemas/index.js';
import { call, get } from '../helpers/service-api.js';
import { startTestEmulator, type TestEmulator } from './helpers.js';

interface BadBody {
  label: string;
  body: unknown;
  code: string;
  param?: string;
}
const BAD_BODIES: BadBody[] = JSON.parse(
  readFileSync(new URL('../fixtures/emulator/inventory-bad-bodies.json', import.meta.url), 'utf8'),
);

describe('PATCH /inventory/{sku}', () => {
  let t: TestEmulator;
  let sku: string;

  const patch = (target: string, body: unknown, key?: string) =>
    call(t.emulator, 'PATCH', `/inventory/${encodeURIComponent(target)}`, { body, key });

  beforeAll(async () => {
    t = await startTestEmulator({ rateLimit: false, channelDelayMs: 1_500 });
  });
  beforeEach(() => {
    t.emulator.reset();
    // A SKU listed somewhere with inventory control, so the write propagates to channels.
    sku = t.emulator.store.allSkus().find((candidate) => {
      const located = t.emulator.store.locateSku(candidate);
      return located !== undefined && t.emulator.store.inventoryTargets(located.product.id).length > 0;
    }) as string;
  });
  afterAll(() => t.emulator.close());

  it('sets quantity and price and answers an InventoryItem with a sync block', async () => {
    t.clock.advance(60_000);
    const answer = await patch(sku, { quantity: 42, price: '19.99' });
    expect(answer.status).toBe(200);
    const item = InventoryItem.parse(answer.body);
    const located = t.emulator.store.locateSku(sku);
    expect(item).toMatchObject({
      object: 'inventory_item',
      sku,
      quantity: 42,
      price: '19.99',
      variant_id: located?.variant.id,
      product_id: located?.product.id,
      updated_at: new Date(t.clock.now()).toISOString(),
    });
    expect(item.sync?.operation_id).toMatch(/^op_/);
    expect(item.sync?.channels?.length).toBeGreaterThan(0);
    for (const channel of item.sync?.channels ?? []) expect(channel.status).toBe('pending');
    expect(t.emulator.store.inventoryBySku(sku)).toMatchObject({ quantity: 42, price: '19.99' });
    const product = await get(t.emulator, `/products/${located?.product.id}`);
    expect(product.body.updated_at).toBe(item.updated_at);
  });

  it("keeps each change's event as it was: a later change and the answer's body rewrite no history", async () => {
    const first = await patch(sku, { quantity: 41 });
    (first.body as { quantity: number }).quantity = -1;
    await patch(sku, { quantity: 43 });
    const events = [...t.emulator.store.events.values()]
      .filter(
        (event) => event.type === 'inventory.updated' && (event.data.object as { sku?: string }).sku === sku,
      )
      .map((event) => (event.data.object as { quantity: number }).quantity);
    expect(events.slice(0, 2).sort()).toEqual([41, 43]);
    // The completed operation's event holds the operation as it completed.
    t.clock.advance(60_000);
    await get(t.emulator, '/status');
    const completed = [...t.emulator.store.events.values()].filter(
      (event) => event.type === 'operation.completed',
    );
    expect(completed.length).toBeGreaterThan(0);
    for (const event of completed)
      expect(['succeeded', 'partial', 'failed']).toContain((event.data.object as { status: string }).status);
  });

  it('leaves an omitted field unchanged', async () => {
    const before = t.emulator.store.inventoryBySku(sku);
    const answer = await patch(sku, { quantity: 3 });
    expect(answer.body.price).toBe(before?.price);
    expect(t.emulator.store.inventoryBySku(sku)?.price).toBe(before?.price);
  });

  it('decodes SKUs carrying a slash or a space', async () => {
    const odd = t.emulator.store.allSkus().filter((candidate) => /[/ ]/.test(candidate));
    expect(odd.some((candidate) => candidate.includes('/'))).toBe(true);
    expect(odd.some((candidate) => candidate.includes(' '))).toBe(true);
    for (const candidate of odd.slice(0, 4)) {
      const answer = await patch(candidate, { quantity: 17 });
      expect(answer.status).toBe(200);
      expect(answer.body.sku).toBe(candidate);
      expect(t.emulator.store.inventoryBySku(candidate)?.quantity).toBe(17);
    }
  });

  it('answers 404 resource_missing for an unknown SKU', async () => {
    const answer = await patch('NO-SUCH-SKU', { quantity: 1 });
    expect(answer.status).toBe(404);
    expect(answer.body.error).toMatchObject({ code: 'resource_missing', param: 'sku' });
  });

  it.each(BAD_BODIES)('answers 400 $code for $label', async ({ body, code, param }) => {
    const before = t.emulator.store.inventoryBySku(sku);
    const answer = await patch(sku, body);
    expect(answer.status).toBe(400);
    expect(answer.body.error.type).toBe('invalid_request_error');
    expect(answer.body.error.code).toBe(code);
    if (param) expect(answer.body.error.param).toBe(param);
    expect(t.emulator.store.inventoryBySku(sku)).toEqual(before);
  });

  it('answers 400 body_invalid for a body that is not JSON', async () => {
    const answer = await call(t.emulator, 'PATCH', `/inventory/${encodeURIComponent(sku)}`, {
      raw: '{quantity: 1',
    });
    expect(answer.status).toBe(400);
    expect(answer.body.error.code).toBe('body_invalid');
  });

  it('accepts the largest quantity and a price without decimals', async () => {
    const answer = await patch(sku, { quantity: 2_147_483_647, price: '12' });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ quantity: 2_147_483_647, price: '12' });
  });

  it('emits one inventory.updated event with the item, and none when nothing changed', async () => {
    const answer = await patch(sku, { quantity: 77 });
    const events = await get(t.emulator, '/events?type=inventory.updated&limit=5');
    const newest = events.body.data[0];
    expect(newest.created_at).toBe(new Date(t.clock.now()).toISOString());
    const { sync: _sync, ...item } = answer.body;
    expect(newest.data.object).toEqual(item);
    const count = t.emulator.store.events.size;
    expect((await patch(sku, { quantity: 77 })).status).toBe(200);
    expect(t.emulator.store.events.size).toBe(count);
  });

  it('completes the operation after the channel delay and emits operation.completed', async () => {
    const answer = await patch(sku, { quantity: 5 });
    const id = answer.body.sync.operation_id;
    const pending = Operation.parse((await get(t.emulator, `/operations/${id}`)).body);
    expect(pending.status).toBe('pending');
    expect(pending.results?.every((result) => result.status === 'pending' && result.sku === sku)).toBe(true);
    t.clock.advance(1_500);
    const done = (await get(t.emulator, `/operations/${id}`)).body;
    expect(done.status).toBe('succeeded');
    expect(done.completed_at).toBe(new Date(t.clock.now()).toISOString());
    const completed = await get(t.emulator, '/events?type=operation.completed&limit=1');
    expect(completed.body.data[0].data.object).toMatchObject({ id, status: 'succeeded' });
  });

  it('simulates with the test key: same shape, simulated, nothing changes, operation readable by that key', async () => {
    const before = t.emulator.store.inventoryBySku(sku);
    const eventCount = t.emulator.store.events.size;
    const answer = await patch(sku, { quantity: 1234, price: '0.99' }, t.emulator.keys.test);
    expect(answer.status).toBe(200);
    InventoryItem.parse(answer.body);
    expect(answer.body).toMatchObject({ sku, quantity: 1234, price: '0.99' });
    expect(answer.body.sync.channels.length).toBeGreaterThan(0);
    for (const channel of answer.body.sync.channels) expect(channel.status).toBe('simulated');
    expect(t.emulator.store.inventoryBySku(sku)).toEqual(before);
    expect(t.emulator.store.events.size).toBe(eventCount);
    const id = answer.body.sync.operation_id;
    const operation = await get(t.emulator, `/operations/${id}`, t.emulator.keys.test);
    expect(operation.status).toBe(200);
    expect(operation.body.status).toBe('succeeded');
    expect(operation.body.results.every((result: { status: string }) => result.status === 'simulated')).toBe(
      true,
    );
    expect((await get(t.emulator, `/operations/${id}`)).status).toBe(404);
    const listed = await get(t.emulator, '/operations?limit=1', t.emulator.keys.test);
    expect(listed.body.data[0].id).toBe(id);
  });

  it('validates test-key writes like live ones', async () => {
    expect((await patch(sku, { quantity: -5 }, t.emulator.keys.test)).status).toBe(400);
    expect((await patch('NOPE', { quantity: 5 }, t.emulator.keys.test)).status).toBe(404);
    expect(t.emulator.store.testOperations.size).toBe(0);
  });
});
