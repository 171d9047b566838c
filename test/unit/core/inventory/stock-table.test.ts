import { describe, expect, it } from 'vitest';
import { StockTable } from '../../../../src/core/inventory/stock-table.js';

describe('StockTable', () => {
  it('answers each SKU exactly, through growth, with nulls and a later value winning', () => {
    const table = new StockTable();
    const count = 50_000;
    for (let index = 0; index < count; index++)
      table.set(`SKU-${index}`, {
        quantity: index % 7 === 0 ? null : index,
        price: index % 5 === 0 ? null : `${index % 300}.99`,
      });
    table.set('SKU-3', { quantity: 0, price: '1.50' });
    expect(table.size).toBe(count);
    expect(table.get('SKU-3')).toEqual({ quantity: 0, price: '1.50' });
    expect(table.get('SKU-49999')).toEqual({ quantity: 49_999, price: '199.99' });
    expect(table.get('SKU-14')).toEqual({ quantity: null, price: '14.99' });
    expect(table.get('SKU-10')).toEqual({ quantity: 10, price: null });
    // Near misses are not the SKU: a prefix, a longer one, another case.
    expect(table.get('SKU-4999')).toEqual({ quantity: 4_999, price: '199.99' });
    expect(table.get('SKU-')).toBeUndefined();
    expect(table.get('SKU-500000')).toBeUndefined();
    expect(table.get('sku-1')).toBeUndefined();
  });

  it('keeps SKUs of any characters and lists them in the order first set', () => {
    const table = new StockTable();
    const skus = ['MUG/11OZ-WHITE', 'CANDLE 0004-CEDAR', 'ÉTÉ-42', '杯子-1', ''];
    for (const [index, sku] of skus.entries()) table.set(sku, { quantity: index, price: '2.5' });
    expect([...table.entries()].map(([sku, values]) => [sku, values.quantity])).toEqual(
      skus.map((sku, index) => [sku, index]),
    );
    expect(table.get('ÉTÉ-42')?.quantity).toBe(2);
  });

  it('keeps quantities beyond 32 bits, fractions and its own markers exactly (sized ahead or not)', () => {
    const odd = [2 ** 40, 1.5, -(2 ** 31), -(2 ** 31) + 1, -1, 0, null];
    for (const table of [new StockTable(), new StockTable(100_000)]) {
      for (const [index, quantity] of odd.entries()) table.set(`Q-${index}`, { quantity, price: null });
      expect(odd.map((_, index) => table.get(`Q-${index}`)?.quantity)).toEqual(odd);
      table.set('Q-0', { quantity: 3, price: null });
      expect(table.get('Q-0')?.quantity).toBe(3);
    }
    expect(new StockTable(1_000_000).byteLength).toBeLessThan(40 * 1_000_000);
  });
});
