import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compareRow, compareWithStore, samePrice } from '../../../../src/core/inventory/changes.js';
import { checkInventoryFile } from '../../../../src/core/inventory/check.js';
import type { LiveIndex } from '../../../../src/core/inventory/live-stock.js';
import { tempDir } from '../../../helpers/temp-dir.js';

const row = (sku: string, quantity?: number, price?: string) => ({ line: 2, sku, quantity, price });

describe('compareRow', () => {
  const live = { quantity: 5, price: '12.50' };

  it('is undefined when every value the row gives is already there (an omitted field is no change)', () => {
    expect(compareRow(row('A', 5, '12.50'), live)).toBeUndefined();
    expect(compareRow(row('A', 5), live)).toBeUndefined();
    expect(compareRow(row('A', undefined, '12.5'), live)).toBeUndefined();
  });

  it('names how the quantity moves: up, down, to 0 (from anything, even no value)', () => {
    expect(compareRow(row('A', 6), live)).toMatchObject({
      quantity: 'up',
      quantity_before: 5,
      quantity_after: 6,
    });
    expect(compareRow(row('A', 1), live)?.quantity).toBe('down');
    expect(compareRow(row('A', 0), live)?.quantity).toBe('to_zero');
    expect(compareRow(row('A', 3), { quantity: null, price: null })?.quantity).toBe('up');
    expect(compareRow(row('A', 0), { quantity: null, price: null })?.quantity).toBe('to_zero');
  });

  it('a price change carries before and after; a SKU the store lacks is not_in_store', () => {
    expect(compareRow(row('A', 5, '13.00'), live)).toEqual({
      line: 2,
      sku: 'A',
      status: 'changed',
      price_before: '12.50',
      price_after: '13.00',
    });
    expect(compareRow(row('B', 1), undefined)).toEqual({ line: 2, sku: 'B', status: 'not_in_store' });
  });
});

describe('samePrice', () => {
  it('compares decimal amounts, not their spelling', () => {
    expect(samePrice('12.5', '12.50')).toBe(true);
    expect(samePrice('012.500', '12.5')).toBe(true);
    expect(samePrice('12', '12.00')).toBe(true);
    expect(samePrice('0.0', '0')).toBe(true);
    expect(samePrice('12.51', '12.5')).toBe(false);
    expect(samePrice('12', null)).toBe(false);
    // Not a plain decimal: compared as text.
    expect(samePrice('12.50', '12.50 EUR')).toBe(false);
  });
});

describe('compareWithStore', () => {
  it('counts every row once and lists the changed and unknown lines in file order, with the values before', async () => {
    const path = join(tempDir('svc-changes-'), 'stock.csv');
    writeFileSync(path, 'sku,quantity,price\nA,5,1.00\nB,0,2.00\nC,3,\nZ,1,\nD,,9.90\n');
    const file = await checkInventoryFile(path);
    const live: LiveIndex = new Map([
      ['A', { quantity: 5, price: '1.0' }],
      ['B', { quantity: 4, price: '2.00' }],
      ['C', { quantity: 1, price: '7.00' }],
      ['D', { quantity: 8, price: '9.80' }],
    ]);
    const seen: string[] = [];
    const plan = await compareWithStore(file, live, (change) => seen.push(change.sku));
    expect(plan.counts).toEqual({
      rows: 5,
      unchanged: 1,
      changed: 3,
      quantity_up: 1,
      quantity_down: 0,
      quantity_to_zero: 1,
      price_changed: 1,
      not_in_store: 1,
    });
    expect(seen).toEqual(['B', 'C', 'Z', 'D']);
    expect(plan.changedLines).toEqual([3, 4, 6]);
    expect(plan.unknownLines).toEqual([5]);
    expect(plan.before).toEqual([
      { sku: 'B', quantity: 4, price: '2.00' },
      { sku: 'C', quantity: 1, price: '7.00' },
      { sku: 'D', quantity: 8, price: '9.80' },
    ]);
  });
});
