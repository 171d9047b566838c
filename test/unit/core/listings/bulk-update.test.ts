import { describe, expect, it } from 'vitest';
import type { Listing } from '../../../../src/contract/schemas/listing.js';
import { carriesUpdate, updateBody } from '../../../../src/core/listings/bulk-update.js';

const listing: Listing = {
  id: 'list_1',
  object: 'listing',
  product_id: 'prod_1',
  channel_account_id: 'chac_1',
  status: 'error',
  updated_at: '2026-01-01T00:00:00Z',
  attributes: { condition: 'New', size: 42 },
  overrides: { title: 'Blue mug' },
};

describe('carriesUpdate', () => {
  it('holds when every value is there already; a null attribute holds when the listing has none', () => {
    expect(carriesUpdate(listing, { attributes: { condition: 'New' } })).toBe(true);
    expect(carriesUpdate(listing, { attributes: { condition: 'Used' } })).toBe(false);
    expect(carriesUpdate(listing, { attributes: { color: null } })).toBe(true);
    expect(carriesUpdate(listing, { attributes: { size: null } })).toBe(false);
    expect(carriesUpdate(listing, { overrides: { title: 'Blue mug' }, attributes: { size: 42 } })).toBe(true);
    expect(carriesUpdate(listing, { overrides: { title: 'Red mug' } })).toBe(false);
  });
});

describe('updateBody', () => {
  it('types values as svc api -F does, keeps text overrides text, and names undocumented overrides', () => {
    const { body, unknown } = updateBody(['category_id=11457', 'colour=red'], ['size=42', 'gift=true']);
    expect(body).toEqual({
      overrides: { category_id: '11457', colour: 'red' },
      attributes: { size: 42, gift: true },
    });
    expect(unknown).toEqual(['colour']);
    expect(updateBody([], [])).toEqual({ body: {}, unknown: [] });
  });
});
