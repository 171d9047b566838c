import { describe, expect, it } from 'vitest';
import type {
  AttributeDefinition,
  ChannelAccountSummary,
} from '../../../../src/contract/schemas/channel-account.js';
import type { Listing } from '../../../../src/contract/schemas/listing.js';
import type { Product } from '../../../../src/contract/schemas/product.js';
import { type CauseReads, checkCause, issueHint, provided } from '../../../../src/core/listings/cause.js';

const ACCOUNT: ChannelAccountSummary = {
  id: 'chac_1',
  object: 'channel_account',
  channel: 'ebay',
  label: 'eBay US',
  discovery: { categories: true, attribute_schema: true },
};

function listing(overrides: Partial<Listing> = {}): Listing {
  return {
    id: 'list_1',
    object: 'listing',
    product_id: 'prod_1',
    channel_account_id: 'chac_1',
    status: 'error',
    updated_at: '2026-01-01T00:00:00Z',
    ...overrides,
  };
}

function product(overrides: Partial<Product> = {}): Product {
  return {
    id: 'prod_1',
    object: 'product',
    title: 'Mug',
    images: [],
    variants: [],
    updated_at: '2026-01-01T00:00:00Z',
    ...overrides,
  };
}

/** Reads answered from fixed data; `made` counts what was read. */
function reads(data: {
  product?: Product;
  account?: ChannelAccountSummary;
  schema?: AttributeDefinition[];
  category?: string;
  from?: 'override' | 'product';
  children?: boolean;
}): CauseReads & { made: string[] } {
  const made: string[] = [];
  return {
    made,
    product: async () => {
      made.push('product');
      return data.product;
    },
    account: async () => data.account ?? ACCOUNT,
    schema: async () => {
      made.push('schema');
      return data.schema;
    },
    hasSubcategories: async () => {
      made.push('children');
      return data.children ?? false;
    },
    categoryOf: async () =>
      data.category ? { categoryId: data.category, from: data.from ?? 'override' } : undefined,
  };
}

describe('checkCause', () => {
  it('photo: fixed once the product has an image; unknown when the product cannot be read', async () => {
    const none = await checkCause(reads({ product: product() }), listing(), 'photo_required_for_channel');
    expect(none).toEqual({ state: 'unchanged', reason: 'the product still has no image' });
    const one = await checkCause(
      reads({ product: product({ images: [{ id: 'img_1', url: 'https://x/1.jpg' }] }) }),
      listing(),
      'photo_required_for_channel',
    );
    expect(one.state).toBe('fixed');
    expect((await checkCause(reads({}), listing(), 'photo_required_for_channel')).state).toBe('unknown');
  });

  it('missing attributes: the issue names and the schema requires; given by the listing, the product, or every variant', async () => {
    const failing = listing({
      issues: [{ code: 'missing_required_attribute', attribute_names: ['barcode', 'size'] }],
      attributes: { condition: 'New' },
    });
    const schema: AttributeDefinition[] = [
      { name: 'condition', type: 'enum', required: true, values: ['New'] },
      { name: 'size', type: 'string', required: true },
      { name: 'color', type: 'string', required: false },
    ];
    const variants = [
      { id: 'var_1', sku: 'A', barcode: '1', options: { Size: 'S' } },
      { id: 'var_2', sku: 'B', barcode: '2', options: { Size: 'M' } },
    ];
    const fixed = await checkCause(
      reads({ product: product({ variants }), schema, category: 'cat_1' }),
      failing,
      'missing_required_attribute',
    );
    expect(fixed).toEqual({ state: 'fixed', reason: 'barcode, size, condition are given now' });
    const partly = await checkCause(
      reads({
        product: product({ variants: [variants[0], { id: 'var_2', sku: 'B', options: {} }] }),
        schema,
        category: 'cat_1',
      }),
      failing,
      'missing_required_attribute',
    );
    expect(partly).toEqual({ state: 'unchanged', reason: 'still missing barcode, size' });
    // Without a schema, only the names of the issue.
    const noSchema = await checkCause(
      reads({ product: product({ brand: 'Kestrel' }), account: { ...ACCOUNT, discovery: {} } }),
      listing({ issues: [{ code: 'missing_required_attribute', attribute_names: ['brand'] }] }),
      'missing_required_attribute',
    );
    expect(noSchema.state).toBe('fixed');
    // A name the schema has stopped requiring is no longer wanted.
    const relaxed = await checkCause(
      reads({
        product: product(),
        schema: [{ name: 'color', type: 'string', required: false }],
        category: 'c',
      }),
      listing({ issues: [{ code: 'missing_required_attribute', attribute_names: ['color'] }] }),
      'missing_required_attribute',
    );
    expect(relaxed.state).toBe('unknown');
  });

  it('category: unchanged while it has subcategories or does not exist; fixed once a leaf', async () => {
    const chosen = listing({ overrides: { category_id: 'cat_9' } });
    const parent = reads({ category: 'cat_9', children: true });
    expect(await checkCause(parent, chosen, 'category_invalid')).toEqual({
      state: 'unchanged',
      reason: 'category cat_9 still has subcategories',
    });
    expect(parent.made).toEqual(['children']);
    const gone = await checkCause(reads({ category: 'cat_9' }), chosen, 'category_invalid');
    expect(gone).toEqual({ state: 'unchanged', reason: 'category cat_9 still does not exist on eBay US' });
    const leaf = await checkCause(reads({ category: 'cat_9', schema: [] }), chosen, 'category_invalid');
    expect(leaf.state).toBe('fixed');
    const noDiscovery = await checkCause(
      reads({ category: 'cat_9', account: { ...ACCOUNT, discovery: { categories: false } } }),
      chosen,
      'category_invalid',
    );
    expect(noDiscovery.state).toBe('unknown');
  });

  it('a code svc cannot check is unknown, and reads nothing', async () => {
    const none = reads({});
    expect((await checkCause(none, listing(), 'title_too_long')).state).toBe('unknown');
    expect(none.made).toEqual([]);
  });
});

describe('provided', () => {
  it('an option of every variant counts in any case; a blank value does not', () => {
    const variants: NonNullable<Product['variants']> = [
      { id: 'var_1', sku: 'A', options: { SIZE: 'S' } },
      { id: 'var_2', sku: 'B', options: { size: 'M' } },
    ];
    expect(provided(listing(), product({ variants }), 'Size')).toBe(true);
    expect(provided(listing({ attributes: { brand: ' ' } }), product(), 'brand')).toBe(false);
  });
});

describe('issueHint', () => {
  it('names the schema command of the listing category for an invalid value, nothing for other codes', async () => {
    const hint = await issueHint(reads({ category: '1055524' }), listing(), {
      code: 'attribute_value_invalid',
    });
    expect(hint).toBe('Allowed values: svc channels schema chac_1 1055524');
    const unknown = await issueHint(reads({}), listing(), { code: 'attribute_value_invalid' });
    expect(unknown).toContain('svc channels categories chac_1');
    expect(await issueHint(reads({}), listing(), { code: 'category_invalid' })).toBeUndefined();
  });
});
