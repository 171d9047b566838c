import { describe, expect, it } from 'vitest';
import {
  compareBySize,
  compareRow,
  LargestChanges,
  type RowChange,
} from '../../../../src/core/inventory/changes.js';
import { largestChangesLines } from '../../../../src/output/views/inventory.js';

/** A change of `sku` on `line` from the live values to the row's. */
function change(
  line: number,
  sku: string,
  live: { quantity: number | null; price: string | null },
  to: { quantity?: number; price?: string },
): RowChange {
  const found = compareRow({ line, sku, ...to }, live);
  if (!found) throw new Error(`no change for ${sku}`);
  return found;
}

describe('the largest changes a push shows', () => {
  const zeroSmall = change(9, 'Z-SMALL', { quantity: 3, price: null }, { quantity: 0 });
  const zeroBig = change(8, 'Z-BIG', { quantity: 400, price: null }, { quantity: 0 });
  const up = change(2, 'UP', { quantity: 10, price: null }, { quantity: 510 });
  const down = change(3, 'DOWN', { quantity: 900, price: null }, { quantity: 880 });
  const halfPrice = change(4, 'HALF', { quantity: 1, price: '20.00' }, { price: '10.00' });
  const cent = change(5, 'CENT', { quantity: 1, price: '1000.00' }, { price: '999.99' });

  it('zeroings first (the most taken away first), then quantity moves by units, then price moves by share', () => {
    const sorted = [cent, down, halfPrice, zeroSmall, up, zeroBig].sort(compareBySize);
    expect(sorted.map((c) => c.sku)).toEqual(['Z-BIG', 'Z-SMALL', 'UP', 'DOWN', 'HALF', 'CENT']);
  });

  it('keeps only the largest few, whatever the order they stream by; SKUs the store lacks are no change', () => {
    const largest = new LargestChanges(3);
    for (const c of [cent, down, halfPrice, zeroSmall, up, zeroBig]) largest.add(c);
    largest.add({ line: 10, sku: 'GONE', status: 'not_in_store' });
    expect(largest.changes.map((c) => c.sku)).toEqual(['Z-BIG', 'Z-SMALL', 'UP']);
  });

  it('lines: a heading with how many of how many, then each SKU and what moves', () => {
    const lines = largestChangesLines([zeroBig, up, halfPrice], 37);
    expect(lines).toEqual([
      'Largest changes (3 of 37, zeroings first):',
      '  Z-BIG  quantity 400 → 0',
      '  UP     quantity 10 → 510',
      '  HALF   price 20.00 → 10.00',
    ]);
    expect(largestChangesLines([up], 1)[0]).toBe('The one change:');
    expect(largestChangesLines([zeroBig, up], 2)[0]).toBe('All 2 changes, zeroings first:');
    expect(largestChangesLines([], 0)).toEqual([]);
  });
});
