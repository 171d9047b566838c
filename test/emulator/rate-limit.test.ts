import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { get } from '../helpers/service-api.js';
import { startTestEmulator, type TestEmulator } from './helpers.js';

function remaining(answer: { headers: Record<string, string> }): number {
  return Number(answer.headers['x-ratelimit-remaining']);
}

describe('leaky bucket (bucket 10, drain 5/s)', () => {
  let t: TestEmulator;

  beforeAll(async () => {
    t = await startTestEmulator({ bucket: 10, drainPerSecond: 5 });
  });
  beforeEach(() => t.emulator.reset());
  afterAll(() => t.emulator.close());

  it('counts Remaining down through a burst and answers the 11th with 429, Retry-After 1 and the three headers', async () => {
    const seen: number[] = [];
    for (let index = 0; index < 10; index++) {
      const answer = await get(t.emulator, '/products?limit=1');
      expect(answer.status).toBe(200);
      expect(answer.headers['x-ratelimit-limit']).toBe('10');
      seen.push(remaining(answer));
    }
    expect(seen).toEqual([9, 8, 7, 6, 5, 4, 3, 2, 1, 0]);
    const nowSeconds = Math.ceil(t.clock.now() / 1000);
    const refused = await get(t.emulator, '/products?limit=1');
    expect(refused.status).toBe(429);
    expect(refused.body.error).toMatchObject({ type: 'rate_limit_error', code: 'rate_limit_exceeded' });
    expect(refused.headers['retry-after']).toBe('1');
    expect(refused.headers['x-ratelimit-limit']).toBe('10');
    expect(refused.headers['x-ratelimit-remaining']).toBe('0');
    // One unit drains in 0.2 s, so the reset second is the next whole second after now.
    expect(Number(refused.headers['x-ratelimit-reset'])).toBe(Math.ceil((t.clock.now() + 200) / 1000));
    expect(Number(refused.headers['x-ratelimit-reset'])).toBeGreaterThanOrEqual(nowSeconds);
  });

  it('puts Reset at now while Remaining is above zero', async () => {
    t.clock.advance(123);
    const answer = await get(t.emulator, '/health?x=1');
    const listed = await get(t.emulator, '/products?limit=1');
    expect(answer.headers['x-ratelimit-reset']).toBeUndefined();
    expect(remaining(listed)).toBe(9);
    expect(Number(listed.headers['x-ratelimit-reset'])).toBe(Math.ceil(t.clock.now() / 1000));
  });

  it('refills at the drain rate, driven by the clock', async () => {
    for (let index = 0; index < 10; index++) await get(t.emulator, '/products?limit=1');
    t.clock.advance(199);
    expect((await get(t.emulator, '/products?limit=1')).status).toBe(429);
    t.clock.advance(1);
    const one = await get(t.emulator, '/products?limit=1');
    expect(one.status).toBe(200);
    expect(remaining(one)).toBe(0);
    t.clock.advance(1000);
    // Five units drained in a second; this request takes one of them.
    expect(remaining(await get(t.emulator, '/products?limit=1'))).toBe(4);
    t.clock.advance(10_000);
    expect(remaining(await get(t.emulator, '/products?limit=1'))).toBe(9);
  });

  it('does not count a refused request, and counts admitted 4xx answers', async () => {
    for (let index = 0; index < 10; index++) {
      expect((await get(t.emulator, '/products/prod_missing')).status).toBe(404);
    }
    for (let index = 0; index < 5; index++) expect((await get(t.emulator, '/products')).status).toBe(429);
    t.clock.advance(200);
    expect((await get(t.emulator, '/products?limit=1')).status).toBe(200);
  });

  it('gives each key its own bucket', async () => {
    for (let index = 0; index < 10; index++) await get(t.emulator, '/products?limit=1');
    expect((await get(t.emulator, '/products?limit=1')).status).toBe(429);
    const other = await get(t.emulator, '/products?limit=1', t.emulator.keys.test);
    expect(other.status).toBe(200);
    expect(remaining(other)).toBe(9);
  });

  it('gives the trial key bucket 40 and drain 2/s', async () => {
    const key = t.emulator.keys.trial;
    let last = await get(t.emulator, '/products?limit=1', key);
    expect(last.headers['x-ratelimit-limit']).toBe('40');
    for (let index = 1; index < 40; index++) last = await get(t.emulator, '/products?limit=1', key);
    expect(remaining(last)).toBe(0);
    const refused = await get(t.emulator, '/products?limit=1', key);
    expect(refused.status).toBe(429);
    t.clock.advance(1000);
    expect(remaining(await get(t.emulator, '/products?limit=1', key))).toBe(1);
  });

  it('says how long to wait when several units must drain', async () => {
    const slow = t.emulator.createKey({ bucket: 3, drainPerSecond: 0.25 });
    for (let index = 0; index < 3; index++) await get(t.emulator, '/products?limit=1', slow);
    const refused = await get(t.emulator, '/products?limit=1', slow);
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toBe('4');
    t.clock.advance(3_999);
    expect((await get(t.emulator, '/products?limit=1', slow)).status).toBe(429);
    t.clock.advance(1);
    expect((await get(t.emulator, '/products?limit=1', slow)).status).toBe(200);
  });
});

describe('rate limiting turned off', () => {
  it('admits any burst and sends no rate-limit headers', async () => {
    const t = await startTestEmulator({ rateLimit: false, bucket: 2 });
    try {
      for (let index = 0; index < 30; index++) {
        const answer = await get(t.emulator, '/products?limit=1', t.emulator.keys.trial);
        expect(answer.status).toBe(200);
        expect(answer.headers['x-ratelimit-limit']).toBeUndefined();
      }
    } finally {
      await t.emulator.close();
    }
  });
});
