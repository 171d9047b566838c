import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { IDEMPOTENCY_RETENTION_MS } from '../../src/contract/contract.js';
import { call } from '../helpers/service-api.js';
import { startTestEmulator, type TestEmulator } from './helpers.js';

describe('idempotency keys', () => {
  let t: TestEmulator;
  let sku: string;
  let path: string;

  const patch = (body: unknown, key: string | undefined, options: { apiKey?: string; at?: string } = {}) =>
    call(t.emulator, 'PATCH', options.at ?? path, {
      body,
      key: options.apiKey,
      headers: key === undefined ? {} : { 'idempotency-key': key },
    });

  beforeAll(async () => {
    t = await startTestEmulator({ rateLimit: false });
  });
  beforeEach(() => {
    t.emulator.reset();
    sku = t.emulator.store.allSkus()[5];
    path = `/inventory/${encodeURIComponent(sku)}`;
  });
  afterAll(() => t.emulator.close());

  it('replays the stored answer with Idempotent-Replayed and applies nothing again', async () => {
    const first = await patch({ quantity: 11, price: '4.50' }, 'key-1');
    expect(first.status).toBe(200);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const inventoryEvents = () =>
      [...t.emulator.store.events.values()].filter((event) => event.type === 'inventory.updated').length;
    const eventsAfterFirst = inventoryEvents();
    // Another writer changes the SKU; a replay must not set it back.
    t.clock.advance(5_000);
    expect((await patch({ quantity: 99 }, undefined)).status).toBe(200);
    const replay = await patch({ price: '4.50', quantity: 11 }, 'key-1');
    expect(replay.status).toBe(200);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body).toEqual(first.body);
    expect(t.emulator.store.inventoryBySku(sku)?.quantity).toBe(99);
    expect(inventoryEvents()).toBe(eventsAfterFirst + 1);
    expect(t.emulator.idempotencyKeys({ route: 'PATCH /inventory/{sku}' })).toEqual(['key-1', 'key-1']);
  });

  it('answers 409 idempotency_key_reused for a different body or path, and does not store the 409', async () => {
    expect((await patch({ quantity: 1 }, 'key-2')).status).toBe(200);
    const otherBody = await patch({ quantity: 2 }, 'key-2');
    expect(otherBody.status).toBe(409);
    expect(otherBody.body.error).toMatchObject({ type: 'idempotency_error', code: 'idempotency_key_reused' });
    const otherSku = t.emulator.store.allSkus()[6];
    const otherPath = await patch({ quantity: 1 }, 'key-2', {
      at: `/inventory/${encodeURIComponent(otherSku)}`,
    });
    expect(otherPath.status).toBe(409);
    expect(t.emulator.store.inventoryBySku(sku)?.quantity).toBe(1);
    expect((await patch({ quantity: 1 }, 'key-2')).headers['idempotent-replayed']).toBe('true');
  });

  it('rejects a key over 255 characters or empty with 400 parameter_invalid on Idempotency-Key', async () => {
    const before = t.emulator.store.inventoryBySku(sku)?.quantity;
    for (const key of ['k'.repeat(256), '']) {
      const answer = await patch({ quantity: 1 }, key);
      expect(answer.status).toBe(400);
      expect(answer.body.error).toMatchObject({ code: 'parameter_invalid', param: 'Idempotency-Key' });
    }
    expect(t.emulator.store.inventoryBySku(sku)?.quantity).toBe(before);
    expect((await patch({ quantity: 1 }, 'k'.repeat(255))).status).toBe(200);
  });

  it('stores 4xx answers: a replayed 404 stays 404 even after the cause is gone', async () => {
    const missing = await patch({ quantity: 1 }, 'key-404', { at: '/inventory/NOPE' });
    expect(missing.status).toBe(404);
    const again = await patch({ quantity: 1 }, 'key-404', { at: '/inventory/NOPE' });
    expect(again.status).toBe(404);
    expect(again.headers['idempotent-replayed']).toBe('true');
  });

  it('keeps keys per API key: the test key does not see the live key’s answer', async () => {
    expect((await patch({ quantity: 3 }, 'shared')).status).toBe(200);
    const test = await patch({ quantity: 4 }, 'shared', { apiKey: t.emulator.keys.test });
    expect(test.status).toBe(200);
    expect(test.headers['idempotent-replayed']).toBeUndefined();
    expect(test.body.quantity).toBe(4);
  });

  it('forgets a key after 24 hours', async () => {
    expect((await patch({ quantity: 5 }, 'old')).status).toBe(200);
    t.clock.advance(IDEMPOTENCY_RETENTION_MS - 1);
    expect((await patch({ quantity: 5 }, 'old')).headers['idempotent-replayed']).toBe('true');
    t.clock.advance(1);
    const fresh = await patch({ quantity: 6 }, 'old');
    expect(fresh.status).toBe(200);
    expect(fresh.headers['idempotent-replayed']).toBeUndefined();
    expect(t.emulator.store.inventoryBySku(sku)?.quantity).toBe(6);
  });

  it('does not store 5xx answers: a retry after an injected 500 runs again', async () => {
    t.emulator.faults.inject({ method: 'PATCH', path: /^\/inventory\//, kind: 'internal_error' });
    expect((await patch({ quantity: 8 }, 'after-500')).status).toBe(500);
    const retry = await patch({ quantity: 8 }, 'after-500');
    expect(retry.status).toBe(200);
    expect(retry.headers['idempotent-replayed']).toBeUndefined();
    expect(t.emulator.store.inventoryBySku(sku)?.quantity).toBe(8);
  });

  it('compares the path decoded: %2F and %2f in a SKU are the same request', async () => {
    const slashed = t.emulator.store.allSkus().find((candidate) => candidate.includes('/')) as string;
    const upper = `/inventory/${encodeURIComponent(slashed)}`;
    const lower = upper.replace('%2F', '%2f');
    expect(lower).not.toBe(upper);
    expect((await patch({ quantity: 12 }, 'decoded', { at: upper })).status).toBe(200);
    const again = await patch({ quantity: 12 }, 'decoded', { at: lower });
    expect(again.status).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
  });

  it('echoes the Idempotency-Key on the answer', async () => {
    const answer = await patch({ quantity: 2 }, 'echo-me');
    expect(answer.headers['idempotency-key']).toBe('echo-me');
  });
});
