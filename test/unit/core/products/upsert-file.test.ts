import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkUpsertFile, formatOf } from '../../../../src/core/products/upsert-file.js';
import { UsageError } from '../../../../src/errors.js';
import { tempDir } from '../../../helpers/temp-dir.js';

const dir = tempDir('svc-upsert-');
function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}
async function problems(path: string, format: 'csv' | 'json' | 'jsonl'): Promise<string[]> {
  const error = await checkUpsertFile(path, format).catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(UsageError);
  return (error as UsageError).details;
}

describe('checkUpsertFile', () => {
  it('names the item of a product that shares its line with others (a one-line JSON array)', async () => {
    const path = file(
      'one-line.json',
      JSON.stringify([
        { title: 'A', variants: [{ sku: 'A-1' }] },
        { title: '', variants: [{ sku: 'B-1' }] },
      ]),
    );
    expect(await problems(path, 'json')).toEqual([
      expect.stringMatching(/^line 1: item 2, product: title: /),
    ]);
  });

  it('knows formats by name', () => {
    expect([formatOf('a.JSON'), formatOf('a.ndjson'), formatOf('a.tsv'), formatOf('a.xml')]).toEqual([
      'json',
      'jsonl',
      'csv',
      undefined,
    ]);
  });

  it('groups CSV rows by handle with product fields from any row, and keys items by first SKU', async () => {
    const path = file(
      'ok.csv',
      'Handle;Title;SKU;Price;Quantity;options.Size;weight.value;dimensions.length;dimensions.width;dimensions.height\n' +
        'a;Shirt;A-S;1.00;2;S;3;1;2;3\nb;Mug;B-1;;;;;;;\na;;A-M;1.00;;M;;;;\n',
    );
    const checked = await checkUpsertFile(path, 'csv');
    expect(checked.items.map((item) => [item.line, item.key])).toEqual([
      [2, 'A-S'],
      [3, 'B-1'],
    ]);
    expect(checked.items[0].input).toEqual({
      title: 'Shirt',
      weight: { value: '3', unit: 'oz' },
      dimensions: { length: '1', width: '2', height: '3', unit: 'in' },
      variants: [
        { sku: 'A-S', price: '1.00', quantity: 2, options: { Size: 'S' } },
        { sku: 'A-M', price: '1.00', options: { Size: 'M' } },
      ],
    });
    expect(checked.variantCount).toBe(3);
  });

  it('lists every bad CSV line: conflicting product fields, variant cells without a sku, bad numbers, bad prices', async () => {
    const path = file(
      'bad.csv',
      'handle,title,sku,price,quantity\nx,One,X-1,1.00,1\nx,Two,X-2,1.00,1\ny,Y,,2.00,\nz,Z,Z-1,abc,1.5\n',
    );
    expect(await problems(path, 'csv')).toEqual([
      'line 3: title "Two" differs from "One" on line 2 of the same product (x)',
      'line 4: variant columns (price) without a sku',
      expect.stringMatching(/^line 4: "y" has no variants, so no SKU can match it/),
      'line 5: quantity "1.5" is not a whole number (SKU Z-1)',
      'line 5: "z": variants[0].price: must be a non-negative decimal string such as "12.50"',
    ]);
  });

  it('refuses unknown CSV columns and a header without title', async () => {
    await expect(checkUpsertFile(file('cols.csv', 'title,sku,colour\n'), 'csv')).rejects.toThrow(
      /unknown column "colour"/,
    );
    await expect(checkUpsertFile(file('notitle.csv', 'handle,sku\n'), 'csv')).rejects.toThrow(
      /needs a "title" column/,
    );
  });

  it('names JSON items by line and field, and a SKU used by two products', async () => {
    const path = file(
      'items.json',
      '[\n  {"title": "A", "variants": [{"sku": "S1"}]},\n  {"variants": [{"sku": "S1"}]},\n  {"title": "C", "images": [' +
        '{"url": "https://e.com/a.jpg"},'.repeat(20) +
        '{"url": "https://e.com/b.jpg"}]}\n]',
    );
    expect(await problems(path, 'json')).toEqual([
      'line 3: product: title: required',
      'line 3: SKU S1 is also on line 2, in another product; a SKU belongs to one product',
      'line 4: "C": images: 21 images; a product holds at most 20',
    ]);
  });

  it('refuses a JSON file that is not an array', async () => {
    await expect(checkUpsertFile(file('one.json', '{"title": "x"}'), 'json')).rejects.toThrow(
      /must hold a JSON array/,
    );
  });
});

describe('checkUpsertFile: what it cannot use as meant', () => {
  it('refuses a header named twice', async () => {
    await expect(checkUpsertFile(file('dup.csv', 'title,sku,SKU\nT,A,B\n'), 'csv')).rejects.toThrow(
      /"SKU" appears twice \(columns 2 and 3\)/,
    );
  });

  it('refuses SKUs with hidden characters or edge spaces, in any format', async () => {
    const jsonl =
      '{"title":"A","variants":[{"sku":" A-1"}]}\n{"title":"B","variants":[{"sku":"B\\u200b1"}]}\n';
    expect(await problems(file('hidden.jsonl', jsonl), 'jsonl')).toEqual([
      expect.stringMatching(/^line 1: SKU " A-1" has spaces at its start or end/),
      expect.stringMatching(/^line 2: SKU "B\\u\{200B\}1" holds an invisible or control character/),
    ]);
  });

  it('refuses a CSV SKU with edge spaces instead of trimming it', async () => {
    const csv = 'title,sku,price\nTee,"TEE-1 ",10.00\nMug, MUG-1,5.00\n';
    expect(await problems(file('spaces.csv', csv), 'csv')).toEqual([
      expect.stringMatching(/^line 2: SKU "TEE-1 " has spaces at its start or end/),
      expect.stringMatching(/^line 3: SKU " MUG-1" has spaces at its start or end/),
    ]);
  });

  it('names the lines that are not UTF-8, in JSON too', async () => {
    const path = join(dir, 'latin1.jsonl');
    writeFileSync(
      path,
      Buffer.concat([Buffer.from('{"title":"Caf'), Buffer.from([0xe9]), Buffer.from('"}\n')]),
    );
    expect(await problems(path, 'jsonl')).toEqual(['line 1: not UTF-8 text (byte 0xE9)']);
  });
});

describe('checkUpsertFile: products that can never be matched', () => {
  it('refuses a product without variants unless createUnmatched, and checks the rest as usual', async () => {
    const path = file(
      'unmatched.jsonl',
      '{"title":"Gift card"}\n{"title":"Mug","variants":[{"sku":"M-1"}]}\n',
    );
    const error = await checkUpsertFile(path, 'jsonl').catch((caught: unknown) => caught);
    expect((error as UsageError).problems).toEqual([
      expect.objectContaining({ line: 1, key: 'Gift card', code: 'unmatchable' }),
    ]);
    const checked = await checkUpsertFile(path, 'jsonl', path, { createUnmatched: true });
    expect(checked.items.map((item) => item.key)).toEqual(['"Gift card"', 'M-1']);
  });
});
