import { describe, expect, it } from 'vitest';
import type { Product, ProductInput } from '../../../../src/contract/schemas/product.js';
import type { ItemOutcome } from '../../../../src/core/outcomes.js';
import { judgeLostItems, type RunItem } from '../../../../src/core/products/lost-answer.js';
import { upsertProducts } from '../../../../src/core/products/upsert.js';
import type { UpsertItem } from '../../../../src/core/products/upsert-file.js';
import { AmbiguousWriteError } from '../../../../src/errors.js';

const item = (line: number, input: ProductInput): UpsertItem => ({ line, key: input.title, input });
const giftCard = item(1, { title: 'Gift card' });
const mug = item(2, { title: 'Mug', variants: [{ sku: 'M-1' }] } as ProductInput);
const since = new Date('2026-11-01T10:00:00Z');

async function* productsOf(list: Partial<Product>[]): AsyncGenerator<Product> {
  yield* list as Product[];
}

const lostItem = (index: number, title: string): RunItem => ({
  index,
  line: index + 1,
  key: title,
  input: { title },
});
const made = (id: string, title: string) => ({ id, title, variants: [] }) as unknown as Product;

describe('judgeLostItems', () => {
  it('as many found as lost, none open elsewhere: each lost line claims a product of its own', () => {
    const lost = [lostItem(0, 'Gift card'), lostItem(1, 'Gift card')];
    const found = judgeLostItems(lost, {
      created: [made('prod_1', 'Gift card'), made('prod_2', 'Gift card'), made('prod_x', 'Other')],
      openElsewhere: () => 0,
      since,
    });
    expect([...found.applied.values()].sort()).toEqual(['prod_1', 'prod_2']);
    expect(found.unconfirmed?.size).toBe(0);
  });

  it('none found: nothing is claimed, and the lines go again', () => {
    const found = judgeLostItems([lostItem(0, 'Mug')], { created: [], openElsewhere: () => 3, since });
    expect(found.applied.size).toBe(0);
    expect(found.unconfirmed?.size).toBe(0);
  });

  it('more found than lost, or another line of that title open: unconfirmed, with the way to check', () => {
    const lost = [lostItem(4, 'Mug')];
    const extra = judgeLostItems(lost, {
      created: [made('prod_1', 'Mug'), made('prod_2', 'Mug')],
      openElsewhere: () => 0,
      since,
    });
    expect(extra.applied.size).toBe(0);
    expect(extra.unconfirmed?.get(lost[0])).toMatch(
      /cannot tell .*2 products of its title .*svc products list --updated-after 2026-11-01T10:00:00.000Z/,
    );
    const racing = judgeLostItems(lost, { created: [made('prod_1', 'Mug')], openElsewhere: () => 1, since });
    expect(racing.applied.size).toBe(0);
    expect(racing.unconfirmed?.get(lost[0])).toMatch(/1 lost line and 1 more unsettled line of this run/);
  });
});

describe('upsertProducts after a lost answer', () => {
  it('claims what the read-back found, leaves out what this run already accounted for, and sends the rest again', async () => {
    const sent: string[][] = [];
    const outcomes: ItemOutcome[] = [];
    await upsertProducts([giftCard, mug], {
      concurrency: 1,
      simulated: false,
      send: async (inputs) => {
        sent.push(inputs.map((input) => input.title));
        if (sent.length === 1)
          throw new AmbiguousWriteError('POST /products/batch may or may not have been applied');
        return { object: 'batch_result', data: [{ index: 0, status: 'created', id: 'prod_mug' }] };
      },
      updatedSince: () =>
        productsOf([
          { id: 'prod_gift', title: 'Gift card', variants: [], created_at: '2026-11-01T10:00:01.000Z' },
          { id: 'prod_old', title: 'Gift card', variants: [], created_at: '2026-11-01T09:59:59.000Z' },
        ]),
      sendClock: () => since.getTime(),
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
