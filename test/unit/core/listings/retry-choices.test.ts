import { describe, expect, it } from 'vitest';
import type { Listing } from '../../../../src/contract/schemas/listing.js';
import type { Product } from '../../../../src/contract/schemas/product.js';
import type { CauseReads } from '../../../../src/core/listings/cause.js';
import { retryChoices } from '../../../../src/core/listings/retry-choices.js';
import { causeWords } from '../../../../src/output/views/listings.js';

function listing(id: string, product: string, codes: string[], overrides: Partial<Listing> = {}): Listing {
  return {
    id,
    object: 'listing',
    product_id: product,
    channel_account_id: 'chac_etsy',
    channel: 'etsy',
    status: 'error',
    updated_at: '2026-01-01T00:00:00Z',
    issues: codes.map((code) => ({ code })),
    ...overrides,
  };
}

/** Products with or without images; every product read is counted. */
function reads(withImages: string[]): CauseReads & { productReads: string[] } {
  const productReads: string[] = [];
  return {
    productReads,
    product: async (id) => {
      productReads.push(id);
      return {
        id,
        object: 'product',
        title: id,
        images: withImages.includes(id) ? [{ id: 'img_1', url: 'https://x/1.jpg' }] : [],
        variants: [],
        updated_at: '2026-01-01T00:00:00Z',
      } as Product;
    },
    account: async () => undefined,
    schema: async () => undefined,
    hasSubcategories: async () => false,
    categoryOf: async () => undefined,
  };
}

describe('retryChoices', () => {
  it('the errors summary, code x channel, with how many of each group look fixed by the retry check', async () => {
    const listings = [
      listing('list_1', 'prod_fixed', ['photo_required_for_channel']),
      listing('list_2', 'prod_bare', ['photo_required_for_channel', 'brand_missing']),
      listing('list_3', 'prod_bare', ['photo_required_for_channel']),
      listing('list_4', 'prod_fixed', ['photo_required_for_channel'], {
        channel: undefined,
        channel_account_id: 'chac_ebay',
      }),
      listing('list_5', 'prod_bare', []),
    ];
    const check = reads(['prod_fixed']);
    const choices = await retryChoices(listings, check, new Map([['chac_ebay', 'ebay']]));
    expect(
      choices.map(({ error_code, channel, listings: count, causes, retry }) => ({
        error_code,
        channel,
        count,
        causes,
        retry,
      })),
    ).toEqual([
      {
        error_code: 'photo_required_for_channel',
        channel: 'etsy',
        count: 3,
        causes: { fixed: 1, unchanged: 2, unknown: 0 },
        retry: 'svc listings retry --error-code photo_required_for_channel --channel etsy',
      },
      {
        error_code: '(none)',
        channel: 'etsy',
        count: 1,
        causes: undefined,
        retry: '',
      },
      {
        error_code: 'brand_missing',
        channel: 'etsy',
        count: 1,
        causes: { fixed: 0, unchanged: 0, unknown: 1 },
        retry: 'svc listings retry --error-code brand_missing --channel etsy',
      },
      {
        error_code: 'photo_required_for_channel',
        channel: 'ebay',
        count: 1,
        causes: { fixed: 1, unchanged: 0, unknown: 0 },
        retry: 'svc listings retry --error-code photo_required_for_channel --channel ebay',
      },
    ]);
  });

  it('in words: what looks fixed, what is unchanged, what cannot be told', () => {
    expect(causeWords({ fixed: 1, unchanged: 2, unknown: 0 })).toBe('1 looks fixed, 2 unchanged');
    expect(causeWords({ fixed: 3, unchanged: 0, unknown: 1 })).toBe('3 look fixed, 1 cannot tell');
    expect(causeWords({ fixed: 0, unchanged: 0, unknown: 4 })).toBe('svc cannot tell');
    expect(causeWords(undefined)).toBe('no code to retry by');
  });
});
