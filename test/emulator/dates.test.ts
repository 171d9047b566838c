/**
 * Dates as RFC 3339 says: `created_after`, `updated_after` and `expected_updated_at` take a
 * date-time with its offset, and refuse (400 `parameter_invalid` naming the parameter) a date
 * that does not exist, `T24:00`, a time without an offset, a date alone and an empty value.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, get } from '../helpers/service-api.js';
import { startTestEmulator, type TestEmulator } from './helpers.js';

const REFUSED = [
  '2026-02-30T00:00:00Z',
  '2026-02-30',
  '2026-01-01T24:00:00Z',
  '2026-01-01T10:00:00',
  '2026-01-01',
  '2026-01-01 10:00:00Z',
  '2026-13-01T00:00:00Z',
  '2026-01-01T10:00:00+25:00',
  '',
];
const TAKEN = ['2026-01-01T10:00:00Z', '2024-02-29T23:59:59.123+02:00', '2026-01-01t10:00:00z'];

describe('date-times', () => {
  let t: TestEmulator;

  beforeAll(async () => {
    t = await startTestEmulator({ rateLimit: false, products: 5, orders: 5 });
  });
  afterAll(() => t.emulator.close());

  it.each([
    ['/products', 'updated_after'],
    ['/listings', 'updated_after'],
    ['/orders', 'created_after'],
    ['/operations', 'created_after'],
    ['/events', 'created_after'],
  ])('%s refuses what is not an RFC 3339 date-time in %s', async (path, name) => {
    for (const value of REFUSED) {
      const answer = await get(t.emulator, `${path}?${name}=${encodeURIComponent(value)}`);
      expect(answer.status, value).toBe(400);
      expect(answer.body.error).toMatchObject({ code: 'parameter_invalid', param: name });
    }
    for (const value of TAKEN) {
      expect((await get(t.emulator, `${path}?${name}=${encodeURIComponent(value)}`)).status, value).toBe(200);
    }
  });

  it('refuses 2026-02-30 as expected_updated_at, and takes an offset', async () => {
    const [id] = t.emulator.store.products.keys();
    for (const value of ['2026-02-30T00:00:00Z', '2026-01-01T10:00:00', '']) {
      const answer = await call(t.emulator, 'PATCH', `/products/${id}`, {
        body: { title: 'x', expected_updated_at: value },
      });
      expect(answer.status, value).toBe(400);
      expect(answer.body.error).toMatchObject({ code: 'parameter_invalid', param: 'expected_updated_at' });
    }
    const taken = await call(t.emulator, 'PATCH', `/products/${id}`, {
      body: { title: 'x', expected_updated_at: '2099-01-01T00:00:00+01:00' },
    });
    expect(taken.status).toBe(200);
  });
});
