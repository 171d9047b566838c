import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { msUntilUtcMidnight } from '../../src/contract/contract.js';
import { call, get } from '../helpers/service-api.js';
import { startTestEmulator, type TestEmulator } from './helpers.js';

describe('daily write quota (3 writes)', () => {
  let t: TestEmulator;
  let skus: string[];

  const patch = (sku: string, body: unknown, key?: string, headers?: Record<string, string>) =>
    call(t.emulator, 'PATCH', `/inventory/${encodeURIComponent(sku)}`, { body, key, headers });

  beforeAll(async () => {
    t = await startTestEmulator({ writeQuota: 3, rateLimit: false });
  });
  beforeEach(() => {
    t.emulator.reset();
    skus = t.emulator.store.allSkus();
  });
  afterAll(() => t.emulator.close());

  it('runs out at exactly N successful writes, with Retry-After up to 00:00 UTC', async () => {
    for (let index = 0; index < 3; index++)
      expect((await patch(skus[index], { quantity: 7 })).status).toBe(200);
    expect(t.emulator.writeQuotaUsed()).toBe(3);
    const refused = await patch(skus[3], { quantity: 7 });
    expect(refused.status).toBe(429);
    expect(refused.body.error).toMatchObject({ type: 'rate_limit_error', code: 'write_quota_exceeded' });
    expect(Number(refused.headers['retry-after'])).toBe(Math.ceil(msUntilUtcMidnight(t.clock.now()) / 1000));
    expect(t.emulator.store.inventoryBySku(skus[3])?.quantity).not.toBe(7);
  });

  it('does not count failed writes, test-key writes or idempotent replays', async () => {
    expect((await patch('NO-SUCH-SKU', { quantity: 1 })).status).toBe(404);
    expect((await patch(skus[0], { quantity: -1 })).status).toBe(400);
    for (let index = 0; index < 5; index++) {
      expect((await patch(skus[index], { quantity: 3 }, t.emulator.keys.test)).status).toBe(200);
    }
    const headers = { 'idempotency-key': 'quota-replay' };
    expect((await patch(skus[0], { quantity: 9 }, undefined, headers)).status).toBe(200);
    const replay = await patch(skus[0], { quantity: 9 }, undefined, headers);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(t.emulator.writeQuotaUsed()).toBe(1);
    expect((await patch(skus[1], { quantity: 9 })).status).toBe(200);
    expect((await patch(skus[2], { quantity: 9 })).status).toBe(200);
    expect((await patch(skus[3], { quantity: 9 })).status).toBe(429);
  });

  it('keeps reads, test-key writes and replays working when used up, and resets at midnight UTC', async () => {
    const headers = { 'idempotency-key': 'before-exhaustion' };
    expect((await patch(skus[0], { quantity: 1 }, undefined, headers)).status).toBe(200);
    for (let index = 1; index < 3; index++) await patch(skus[index], { quantity: 1 });
    expect((await patch(skus[4], { quantity: 1 })).status).toBe(429);
    expect((await get(t.emulator, '/products?limit=5')).status).toBe(200);
    expect((await patch(skus[4], { quantity: 1 }, t.emulator.keys.test)).status).toBe(200);
    expect((await patch(skus[0], { quantity: 1 }, undefined, headers)).status).toBe(200);
    t.clock.advance(msUntilUtcMidnight(t.clock.now()));
    expect((await patch(skus[4], { quantity: 1 })).status).toBe(200);
    expect(t.emulator.writeQuotaUsed()).toBe(1);
  });
});
