/**
 * A listing never goes backwards: deleting a product while its publish is in flight delists the
 * listing, and the publish's answer (the product is gone) does not turn it into `error`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, get } from '../helpers/service-api.js';
import { startTestEmulator, type TestEmulator } from './helpers.js';

const DELAY_MS = 1_000;
const TRIES = 20;

describe('deleting a product while its publish is in flight', () => {
  let t: TestEmulator;

  beforeAll(async () => {
    t = await startTestEmulator({
      rateLimit: false,
      channelDelayMs: DELAY_MS,
      products: 5,
      orders: 5,
      tickMs: 0,
    });
  });
  afterAll(() => t.emulator.close());

  it(`ends delisted ${TRIES} of ${TRIES} times, never in status=error`, async () => {
    const account = [...t.emulator.store.accounts.values()].find(
      (candidate) => candidate.status === 'connected',
    );
    const ids: string[] = [];
    for (let n = 0; n < TRIES; n++) {
      const product = await call(t.emulator, 'POST', '/products', {
        body: { title: `Race ${n}`, variants: [{ sku: `RACE-${n}`, price: '5.00', quantity: 1 }] },
      });
      expect(product.status).toBe(201);
      const listing = await call(t.emulator, 'POST', '/listings', {
        body: { product_id: product.body.id, channel_account_id: account?.id },
      });
      expect(listing.status).toBe(201);
      expect((await call(t.emulator, 'DELETE', `/products/${product.body.id}`)).status).toBe(200);
      ids.push(listing.body.id);
    }
    t.clock.advance(DELAY_MS * 10);
    const statuses = [];
    for (const id of ids) statuses.push((await get(t.emulator, `/listings/${id}`)).body.status);
    expect(statuses).toEqual(ids.map(() => 'delisted'));
    const errors = await get(t.emulator, '/listings?status=error&limit=100');
    const failing = errors.body.data.map((listing: { id: string }) => listing.id);
    expect(failing.filter((id: string) => ids.includes(id))).toEqual([]);
  });
});
