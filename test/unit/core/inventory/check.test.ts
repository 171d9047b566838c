import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkInventoryFile, inventoryBatches } from '../../../../src/core/inventory/check.js';
import { parseColumnMap, toRow } from '../../../../src/core/inventory/csv-rows.js';
import { UsageError } from '../../../../src/errors.js';
import { tempDir } from '../../../helpers/temp-dir.js';

function csvFile(text: string): string {
  const path = join(tempDir('svc-inv-'), 'stock.csv');
  writeFileSync(path, text);
  return path;
}

async function problemsOf(text: string, map?: string): Promise<string[]> {
  try {
    await checkInventoryFile(csvFile(text), { map });
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return [(error as UsageError).message, ...(error as UsageError).details];
  }
  throw new Error('expected the check to fail');
}

describe('parseColumnMap', () => {
  it('maps fields to lower-cased header names and rejects unknown fields', () => {
    expect(parseColumnMap('sku=Item, quantity = Qty')).toEqual({ sku: 'item', quantity: 'qty' });
    expect(() => parseColumnMap('colour=Red')).toThrow(UsageError);
    expect(() => parseColumnMap('sku=')).toThrow(UsageError);
  });
});

describe('toRow', () => {
  const columns = { sku: 0, quantity: 1, price: 2 };
  it('omits empty cells and keeps values exact', () => {
    expect(toRow(['A', '5', ''], 2, columns)).toEqual({ line: 2, sku: 'A', quantity: 5 });
    expect(toRow(['A', '', '12.50'], 3, columns)).toEqual({ line: 3, sku: 'A', price: '12.50' });
  });
  it('rejects bad values with a reason', () => {
    expect(toRow(['A', '-1', ''], 2, columns)).toMatchObject({
      message: expect.stringMatching(/quantity "-1"/),
    });
    expect(toRow(['A', '1.5', ''], 2, columns)).toMatchObject({
      message: expect.stringMatching(/whole number/),
    });
    expect(toRow(['A', '2147483648', ''], 2, columns)).toMatchObject({
      message: expect.stringMatching(/2147483647/),
    });
    expect(toRow(['A', '', '12,50'], 2, columns)).toMatchObject({
      message: expect.stringMatching(/price "12,50"/),
    });
    expect(toRow(['', '1', ''], 2, columns)).toMatchObject({ message: 'missing SKU' });
    expect(toRow(['A', '', ''], 2, columns)).toMatchObject({
      message: expect.stringMatching(/neither quantity nor price/),
    });
  });
  it('reads a single decimal comma where the file says so, and names a thousands separator', () => {
    const comma = { ...columns, decimalComma: true };
    expect(toRow(['A', '', '28,37'], 2, comma)).toEqual({ line: 2, sku: 'A', price: '28.37' });
    expect(toRow(['A', '', '28.37'], 2, comma)).toEqual({ line: 2, sku: 'A', price: '28.37' });
    expect(toRow(['A', '', '12,50'], 2, columns)).toMatchObject({
      message: expect.stringMatching(/decimal comma; run again with --decimal-comma/),
    });
    for (const price of ['1.234,56', '1,234.56', '1.234.567', '1,2,3']) {
      expect(toRow(['A', '', price], 2, comma), price).toMatchObject({
        code: 'invalid_price',
        message: expect.stringMatching(/thousands separator/),
      });
    }
    expect(toRow(['A', '', ',5'], 2, comma)).toMatchObject({
      message: expect.stringMatching(/not a non-negative/),
    });
    expect(toRow(['A', '', '€5,00'], 2, comma)).toMatchObject({
      message: expect.stringMatching(/remove the currency sign \(format the column as Number\)/),
    });
  });
  it('accepts the largest quantity', () => {
    expect(toRow(['A', '2147483647', ''], 2, columns)).toMatchObject({ quantity: 2147483647 });
  });
});

describe('checkInventoryFile', () => {
  it('skips rows of empty cells, counts them, and keeps the physical line numbers', async () => {
    const file = await checkInventoryFile(
      csvFile('sku;quantity;price\r\n;;\r\nA;1;2,5\r\n ; ;\r\nB;;x\r\n;;\r\n'),
    ).catch((error: UsageError) => error);
    expect((file as UsageError).details).toEqual([
      'line 5: price "x" is not a non-negative decimal such as 12.50 (SKU B)',
    ]);
    const checked = await checkInventoryFile(
      csvFile('sku;quantity;price\r\n;;\r\nA;1;2,5\r\n ; ;\r\n;;\r\n'),
    );
    expect(checked).toMatchObject({ rowCount: 1, emptyRows: 3 });
    expect(checked.columns.decimalComma).toBe(true);
    const rows = [];
    for await (const batch of inventoryBatches(checked, 10)) rows.push(...batch);
    expect(rows).toEqual([{ line: 3, sku: 'A', quantity: 1, price: '2.5', index: 0 }]);
  });

  it('reads BOM, case-insensitive trimmed headers, semicolons, and hashes the bytes', async () => {
    const text = '\uFEFF SKU ;Quantity;PRICE\nA;1;2.00\nB;;3\n';
    const file = await checkInventoryFile(csvFile(text));
    expect(file.rowCount).toBe(2);
    expect(file.delimiter).toBe(';');
    expect(file.sample.map((r) => r.sku)).toEqual(['A', 'B']);
    expect(file.sha256).toMatch(/^[0-9a-f]{64}$/);
    const again = await checkInventoryFile(csvFile(text));
    expect(again.sha256).toBe(file.sha256);
  });

  it('reports physical line numbers, a multi-line record by its first line, and duplicates', async () => {
    const text = 'sku,quantity,note\nA,1,x\n\nB,x,"multi\nline\nnote"\nA,2,\n,3,\n';
    const [message, ...details] = await problemsOf(text);
    expect(message).toMatch(/3 bad lines/);
    expect(details).toEqual([
      expect.stringMatching(/^line 4: quantity "x"/),
      'line 7: duplicate SKU A (first on line 2)',
      'line 8: missing SKU',
    ]);
  });

  it('finds duplicates exactly when SKUs share a fingerprint, in line order with the other bad lines', async () => {
    const text = 'sku,quantity\nA,1\nB,x\nC,2\nA,3\n,4\nC,5\nD,6\nA,7\n';
    const path = csvFile(text);
    // Every SKU fingerprints alike: the exact comparison of the second read tells them apart.
    const error = await checkInventoryFile(path, { fingerprint: () => 1 }).catch((caught) => caught);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).details).toEqual([
      expect.stringMatching(/^line 3: quantity "x"/),
      'line 5: duplicate SKU A (first on line 2)',
      'line 6: missing SKU',
      'line 7: duplicate SKU C (first on line 4)',
      'line 9: duplicate SKU A (first on line 2)',
    ]);
    // Alike fingerprints, no duplicate: the file passes, every row counted.
    const file = await checkInventoryFile(csvFile('sku,quantity\nA,1\nB,2\nC,0\n'), { fingerprint: () => 1 });
    expect(file.rowCount).toBe(3);
    expect(file.zeroQuantityRows).toBe(1);
    expect(file.sample.map((row) => row.sku)).toEqual(['A', 'B', 'C']);
  });

  it('says so when the file changes between the read and the second read of its duplicates', async () => {
    const path = csvFile('sku,quantity\nA,1\nA,2\n');
    let calls = 0;
    const fingerprint = (sku: string) => {
      // The first read's last row: the file is rewritten before the second read.
      if (++calls === 2) writeFileSync(path, 'sku,quantity\nA,1\nB,2\n');
      return sku.length;
    };
    await expect(checkInventoryFile(path, { fingerprint })).rejects.toThrow(
      /stock\.csv changed while it was being checked; run again once it is complete; nothing was sent/,
    );
  });

  it('lists the first 50 bad lines, then a count', async () => {
    const rows = Array.from({ length: 60 }, (_, i) => `S${i},bad`).join('\n');
    const [message, ...details] = await problemsOf(`sku,quantity\n${rows}\n`);
    expect(message).toMatch(/60 bad lines/);
    expect(details).toHaveLength(51);
    expect(details.at(-1)).toBe('… and 10 more');
  });

  it('names a wrong header and honours --map', async () => {
    const [message] = await problemsOf('item,qty\nA,1\n');
    expect(message).toMatch(
      /line 1: no column is read as sku; the header has "item", "qty": name it with --map sku=item/,
    );
    const file = await checkInventoryFile(csvFile('Item,Qty\nA,1\n'), { map: 'sku=Item,quantity=Qty' });
    expect(file.sample[0]).toEqual({ line: 2, sku: 'A', quantity: 1 });
    const [noValues] = await problemsOf('sku,colour\nA,red\n');
    expect(noValues).toMatch(/quantity.*price/);
  });

  it('streams the rows again in batches of the asked size', async () => {
    const rows = Array.from({ length: 250 }, (_, i) => `S${i},${i}`).join('\n');
    const file = await checkInventoryFile(csvFile(`sku,quantity\n${rows}`));
    const sizes: number[] = [];
    let last = '';
    for await (const batch of inventoryBatches(file, 100)) {
      sizes.push(batch.length);
      last = batch.at(-1)?.sku ?? '';
    }
    expect(sizes).toEqual([100, 100, 50]);
    expect(last).toBe('S249');
  });
});
