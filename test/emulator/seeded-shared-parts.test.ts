import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ListingRecord } from '../../src/emulator/model.js';
import { call, get } from '../helpers/service-api.js';
import { startTestEmulator, type TestEmulator } from './helpers.js';

const DELAY_MS = 1_000;

// A seeded store keeps equal parts once (a never-listed listing's variant entries, empty
// overrides, attributes): a write must replace such a part, never change it in place.
describe('parts a seeded store shares between records', () => {
  let t: TestEmulator;

  beforeAll(async () => {
    t = await startTestEmulator({ rateLimit: false, channelDelayMs: DELAY_MS, products: 300 });
  });
  afterAll(() => t.emulator.close());

  it('delisting one of two listings that share their variant entries leaves the other as it was', async () => {
    const { store } = t.emulator;
    const pairs = new Map<unknown, ListingRecord>();
    let pair: [ListingRecord, ListingRecord] | undefined;
    for (const listing of store.listings.values()) {
      const other = pairs.get(listing.variants);
      if (other && listing.variants.length > 0) {
        pair = [other, listing];
        break;
      }
      pairs.set(listing.variants, listing);
    }
    expect(pair, 'a seeded store of 300 products shares some variant entries').toBeDefined();
    const [delisted, sibling] = pair as [ListingRecord, ListingRecord];
    const siblingBefore = structuredClone(sibling);
    const answer = await call(t.emulator, 'DELETE', `/listings/${delisted.id}`);
    expect(answer.status).toBe(200);
    t.clock.advance(DELAY_MS);
    await get(t.emulator, '/health', null);
    expect(store.listings.get(delisted.id)?.status).toBe('delisted');
    expect(store.listings.get(delisted.id)?.variants.every((variant) => variant.status === 'inactive')).toBe(
      true,
    );
    expect(store.listings.get(sibling.id)).toEqual(siblingBefore);
  });
});
