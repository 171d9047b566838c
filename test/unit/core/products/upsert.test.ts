import { describe, expect, it } from 'vitest';
import type { Product, ProductInput } from '../../../../src/api/schemas/product.js';
import { createdByTitle, upsertProducts } from '../../../../src/core/products/upsert.js';
import type { UpsertItem } from '../../../../src/core/products/upsert-file.js';
import { AmbiguousWriteError } from '../../../../src/errors.js';

const item = (line: number, input: ProductInput): UpsertItem => ({ line, key: input.title, input });
const giftCard = item(1, { title: 'Gift card' });
const mug = item(2, { title: 'Mug', variants: [{ sku: 'M-1' }] } as ProductInput);

async function* productsOf(list: Partial<Product>[]): AsyncGenerator<Product> {
  yield* list as Product[];
}

describe('createdByTitle', () => {
  it('claims products without variants created since the send, by title, once each', async () => {
    const since = new Date('2026-11-01T10:00:00Z');
    const found = await createdByTitle(
      [giftCard, item(3, { title: 'Gift card' })],
      productsOf([
        { id: 'prod_old', title: 'Gift card', variants: [], created_at: '2026-11-01T09:59:59.000Z' },
        { id: 'prod_new', title: 'Gift card', variants: [], created_at: '2026-11-01T10:00:01.000Z' },
        {
          id: 'prod_var',
          title: 'Gift card',
          variants: [{ sku: 'X' }],
          created_at: '2026-11-01T10:00:02.000Z',
        },
      ] as Partial<Product>[]),
      since,
    );
    expect([...found.entries()]).toEqual([[giftCard, 'prod_new']]);
  });
});

describe('upsertProducts after a lost answer', () => {
  it('sends again only what the read-back did not find', async () => {
    const sent: string[][] = [];
    const outcomes: unknown[] = [];
    await upsertProducts([giftCard, mug], {
      concurrency: 1,
      simulated: false,
      send: async (inputs) => {
        sent.push(inputs.map((input) => input.title));
        if (sent.length === 1)
          throw new AmbiguousWriteError('POST /products/batch may or may not have been applied');
        return { object: 'batch_result', data: [{ index: 0, status: 'created', id: 'prod_mug' }] };
      },
      findCreated: async (items) => new Map(items.map((found) => [found, 'prod_gift'] as const)),
      settle: (chunk) => outcomes.push(...chunk),
    });
    expect(sent).toEqual([['Gift card', 'Mug'], ['Mug']]);
    expect(outcomes).toEqual([
      { index: 0, line: 1, key: 'Gift card', status: 'created', message: 'prod_gift' },
      { index: 1, line: 2, key: 'Mug', status: 'created', message: 'prod_mug' },
    ]);
  });

  it('without a way to read back, the ambiguous failure stops the run', async () => {
    const run = upsertProducts([giftCard], {
      concurrency: 1,
      simulated: false,
      send: async () => {
        throw new AmbiguousWriteError('lost');
      },
      settle: () => {},
    });
    await expect(run).rejects.toThrow(AmbiguousWriteError);
  });
});
