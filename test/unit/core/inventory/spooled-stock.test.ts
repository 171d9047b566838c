import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compareWithStore, type RowChange } from '../../../../src/core/inventory/changes.js';
import { checkInventoryFile } from '../../../../src/core/inventory/check.js';
import { SpooledStock } from '../../../../src/core/inventory/spooled-stock.js';
import type { StockValues } from '../../../../src/core/inventory/stock-table.js';
import { tempDir } from '../../../helpers/temp-dir.js';

/** A file of `rows` of the store's SKUs in a scrambled order, every third a change, every 50th a SKU the store lacks. */
async function fileOf(skus: string[], rows: number) {
  const lines = ['sku,quantity,price'];
  for (let i = 0; i < rows; i++) {
    const sku = i % 50 === 49 ? `NEW-${i}` : skus[(i * 7919) % skus.length];
    const quantity = i % 3 === 0 ? i % 1000 : ((i * 7919) % skus.length) % 900;
    lines.push(`${sku},${quantity},${i % 5 === 0 ? '9.90' : ''}`);
  }
  const path = join(tempDir('svc-spooled-'), 'stock.csv');
  writeFileSync(path, `${lines.join('\n')}\n`);
  return checkInventoryFile(path);
}

/** What the comparison finds: the counts, the lines, and every change as it was heard. */
async function compared(
  file: Awaited<ReturnType<typeof fileOf>>,
  live: Parameters<typeof compareWithStore>[1],
) {
  const heard: RowChange[] = [];
  const plan = await compareWithStore(file, live, (change) => heard.push(change));
  return {
    counts: plan.counts,
    changed: plan.changedLines,
    unknown: plan.unknownLines,
    before: plan.before,
    heard,
  };
}

describe('SpooledStock', () => {
  it('answers the comparison exactly as a table in memory does: nulls, near misses, a SKU read twice', async () => {
    const store = new Map<string, StockValues>();
    const skus: string[] = [];
    for (let i = 0; i < 3000; i++) {
      const sku = `SKU-${i}`;
      skus.push(sku);
      store.set(sku, { quantity: i % 7 === 0 ? null : i % 900, price: i % 4 === 0 ? null : '9.9' });
    }
    // Near misses of file SKUs are other SKUs; a quantity beyond 32 bits and a text price stay as they are.
    for (const [sku, values] of [
      ['SKU-1 ', { quantity: 1, price: '1' }],
      ['sku-2', { quantity: 2, price: '2' }],
      ['SKU-3', { quantity: 2 ** 40, price: 'ask us' }],
    ] as const)
      store.set(sku, values);
    const spooled = new SpooledStock(3000, 64);
    try {
      for (const [sku, values] of store) spooled.set(sku, values);
      // Read twice (a product the crawl met again): the later values win.
      spooled.set('SKU-5', { quantity: 999, price: '0.10' });
      store.set('SKU-5', { quantity: 999, price: '0.10' });
      const file = await fileOf(skus, 3000);
      const expected = await compared(file, store);
      const actual = await compared(file, await spooled.inFileOrder(file));
      expect(actual).toEqual(expected);
      expect(expected.counts.changed).toBeGreaterThan(500);
      expect(expected.counts.not_in_store).toBe(60);
      expect(spooled.mostHeld).toBeLessThanOrEqual(64 * 2);
    } finally {
      spooled.remove();
    }
  });

  it('refuses a SKU asked out of file order', async () => {
    const spooled = new SpooledStock(10);
    try {
      spooled.set('A', { quantity: 1, price: null });
      spooled.set('C', { quantity: 1, price: null });
      const file = await fileOf(['A', 'C'], 2);
      const live = await spooled.inFileOrder(file);
      expect(() => live.get('B')).toThrow(/out of file order/);
    } finally {
      spooled.remove();
    }
  });

  it('holds no more as the file and the store grow: the largest partition stays near its share', async () => {
    const held: number[] = [];
    // Partitions of 2,048 rows, not the 16,384 svc uses: the same growth at a fifth of the work.
    const perPartition = 2_048;
    for (const rows of [6_000, 24_000]) {
      const skus = Array.from({ length: rows + 2_000 }, (_, i) => `P${i}-V`);
      const spooled = new SpooledStock(rows, perPartition);
      try {
        for (const sku of skus) spooled.set(sku, { quantity: 5, price: '1.00' });
        const file = await fileOf(skus, rows);
        const { counts } = await compareWithStore(file, await spooled.inFileOrder(file), undefined, {
          keepBefore: false,
        });
        expect(counts.rows).toBe(rows);
        held.push(spooled.mostHeld);
      } finally {
        spooled.remove();
      }
    }
    for (const most of held) expect(most).toBeLessThanOrEqual(perPartition * 1.1);
  });
});
