import { describe, expect, it } from 'vitest';
import type { Product } from '../../../../src/contract/schemas/product.js';
import { upsertVerdicts } from '../../../../src/core/products/dry-verdicts.js';
import type { UpsertItem } from '../../../../src/core/products/upsert-file.js';

/** A catalog product holding `skus` and `images` (ids), as the list answers it. */
const product = (id: string, skus: string[], images: string[] = []) =>
  ({ id, variants: skus.map((sku) => ({ sku })), images: images.map((image) => ({ id: image })) }) as Product;

async function* catalog(...products: Product[]): AsyncGenerator<Product> {
  yield* products;
}

const item = (line: number, input: UpsertItem['input']): UpsertItem => ({
  line,
  key: input.variants?.[0]?.sku ?? input.title,
  input,
});

describe('upsertVerdicts', () => {
  it('fails SKUs of two products and an image id the product lacks; updates or creates the others', async () => {
    const verdicts = await upsertVerdicts(
      [
        item(1, { title: 'Both', variants: [{ sku: 'A' }, { sku: 'B' }] }),
        item(2, { title: 'A', variants: [{ sku: 'A' }], images: [{ id: 'img_9' }] }),
        item(3, { title: 'A', variants: [{ sku: 'A' }], images: [{ id: 'img_1' }] }),
        item(4, { title: 'New', variants: [{ sku: 'N' }] }),
      ],
      catalog(product('prod_a', ['A'], ['img_1']), product('prod_b', ['B'])),
      { live: true },
    );
    expect(verdicts.map(({ status, code }) => [status, code])).toEqual([
      ['would_fail', 'validation_failed'],
      ['would_fail', 'validation_failed'],
      ['would_send', undefined],
      ['would_send', undefined],
    ]);
    expect(verdicts[2].message).toBe('would update prod_a');
    expect(verdicts[3].message).toBe('would create a product');
  });

  it('judges each item on the catalog the earlier ones left, with a live key only', async () => {
    const items = [
      // Creates a product holding X.
      item(1, { title: 'X', variants: [{ sku: 'X' }] }),
      // X is now that new product's, A is prod_a's: two products.
      item(2, { title: 'X and A', variants: [{ sku: 'X' }, { sku: 'A' }] }),
      // An update replaces prod_b's variants: C is no longer its, so C and E make a new product.
      item(3, { title: 'B and D', variants: [{ sku: 'B' }, { sku: 'D' }] }),
      item(4, { title: 'C and E', variants: [{ sku: 'C' }, { sku: 'E' }] }),
    ];
    const store = () => catalog(product('prod_a', ['A']), product('prod_b', ['B', 'C']));
    const live = await upsertVerdicts(items, store(), { live: true });
    expect(live.map((verdict) => verdict.status)).toEqual([
      'would_send',
      'would_fail',
      'would_send',
      'would_send',
    ]);
    expect(live[3].message).toBe('would create a product');
    // A test key keeps nothing: each item meets the catalog as it is.
    const test = await upsertVerdicts(items, store(), { live: false });
    expect(test.map((verdict) => verdict.status)).toEqual([
      'would_send',
      'would_send',
      'would_send',
      'would_send',
    ]);
    expect(test[3].message).toBe('would update prod_b');
  });
});
