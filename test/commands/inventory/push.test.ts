/**
 * `inventory push` with the files operators have: headers in their own words and languages
 * read as the fields they name, number formats from spreadsheets refused with the fix, and a
 * file Excel saved in its Western code page read as such; and at scale, a report of a long
 * push that holds every row in input order, written from outcomes streamed as they settle.
 */
import { createReadStream, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../../src/emulator/index.js';
import { emulator, emulatorPerTest, envFor } from '../../helpers/emulator.js';
import { runSvc } from '../../helpers/svc.js';

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await emulator({ rateLimit: false, orders: 5, products: 10 });
});
beforeEach(() => emu.reset());
afterAll(() => emu.close());

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Writes `content` (text or raw bytes) to a fresh file and returns its path. */
function file(name: string, content: string | Buffer): string {
  const dir = mkdtempSync(join(tmpdir(), 'svc-push-'));
  dirs.push(dir);
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

const batches = () => emu.requests({ method: 'POST', path: '/inventory/batch' });
const push = (path: string, ...more: string[]) =>
  runSvc(['inventory', 'push', path, ...more], { env: envFor(emu) });

describe('inventory push: headers it knows, it reads', () => {
  it('Item SKU, Qty and Preis are read as sku, quantity and price, with a notice', async () => {
    const [a, b] = emu.store.allSkus();
    const result = await push(file('stock.csv', `Item SKU,Qty,Preis\n${a},5,9.99\n${b},7,4.50\n`));
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain('Columns: sku from "Item SKU", quantity from "Qty", price from "Preis".');
    expect(emu.store.inventoryBySku(a)).toMatchObject({ quantity: 5, price: '9.99' });
  });

  it('Bestand and Quantité too; two candidates for one field is an error naming both and the --map', async () => {
    const [a] = emu.store.allSkus();
    const german = await push(file('de.csv', `SKU;Bestand\n${a};3\n`), '--dry-run');
    expect(german.code, german.stderr).toBe(0);
    expect(german.stderr).toContain('quantity from "Bestand"');
    const french = await push(file('fr.csv', `SKU;Quantité;Prix\n${a};3;2,50\n`), '--dry-run');
    expect(french.code, french.stderr).toBe(0);
    expect(french.stderr).toContain('quantity from "Quantité", price from "Prix"');
    const two = await push(file('two.csv', `SKU,Qty,Stock\n${a},1,2\n`));
    expect(two.code).toBe(2);
    expect(two.stderr).toContain('both "Qty" and "Stock" could be read as quantity');
    expect(two.stderr).toContain('--map quantity=Qty');
    expect(batches()).toEqual([]);
  });

  it('no column read as sku: the error quotes the header and the --map to write', async () => {
    const [a] = emu.store.allSkus();
    const result = await push(file('own.csv', `Artikel,Menge\n${a},3\n`));
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('no column is read as sku; the header has "Artikel", "Menge"');
    expect(result.stderr).toContain('--map sku=Artikel');
  });
});

describe('inventory push: a file Excel saved in its own code page', () => {
  it('Windows-1252 with ö in an ignored column and in the title column is read, with a notice naming --encoding', async () => {
    const [a, b] = emu.store.allSkus();
    const path = file(
      'excel.csv',
      Buffer.concat([
        Buffer.from(`sku;title;quantity;Bemerkung\r\n${a};M`),
        Buffer.from([0xfc]), // ü
        Buffer.from(`sli;4;sch`),
        Buffer.from([0xf6]), // ö
        Buffer.from(`n\r\n${b};K`),
        Buffer.from([0xf6]),
        Buffer.from(`rbchen;6;\r\n`),
      ]),
    );
    const result = await push(path);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain('is not UTF-8 but reads as Windows-1252');
    expect(result.stderr).toContain('--encoding');
    expect(emu.store.inventoryBySku(a)?.quantity).toBe(4);
    expect(emu.store.inventoryBySku(b)?.quantity).toBe(6);
  });

  it('UTF-16 with or without a byte order mark is refused by name', async () => {
    const [a] = emu.store.allSkus();
    const text = `sku,quantity\n${a},1\n`;
    const withBom = await push(
      file('bom.csv', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')])),
    );
    expect(withBom.code).toBe(2);
    expect(withBom.stderr).toContain('UTF-16');
    const bare = await push(file('bare.csv', Buffer.from(text, 'utf16le')));
    expect(bare.code).toBe(2);
    expect(bare.stderr).toContain('is UTF-16 text');
    expect(batches()).toEqual([]);
  });
});

describe('inventory push: number formats from Google Sheets and Excel are named, with the fix', () => {
  it('$28.37, 28,37 €, 1,200 and 1.234,56 are refused, each message saying what to do', async () => {
    const [a, b, c] = emu.store.allSkus();
    const comma = await push(
      file('sheets.csv', `sku,price,quantity\n${a},$28.37,1\n${b},"1,200",2\n${c},5,"1,200"\n`),
    );
    expect(comma.code).toBe(2);
    expect(comma.stderr).toContain(
      'line 2: price "$28.37" holds a currency sign: remove the currency sign (format the column as Number)',
    );
    expect(comma.stderr).toContain(
      'line 3: price "1,200" looks like a thousands separator: remove the thousands separator (1200)',
    );
    expect(comma.stderr).toContain(
      'line 4: quantity "1,200" is not a whole number from 0 to 2147483647: remove the thousands separator (1200)',
    );
    const semicolon = await push(file('excel.csv', `sku;price\n${a};28,37 €\n${b};1.234,56\n`));
    expect(semicolon.code).toBe(2);
    expect(semicolon.stderr).toContain(
      'line 2: price "28,37 €" holds a currency sign: remove the currency sign (format the column as Number)',
    );
    expect(semicolon.stderr).toContain(
      'line 3: price "1.234,56" holds a thousands separator: remove the thousands separator (1234,56, which this file\'s decimal comma reads as 1234.56)',
    );
    const plain = await push(file('plain.csv', `sku,price\n${a},"1.234,56"\n`));
    expect(plain.stderr).toContain('remove the thousands separator and run again with --decimal-comma');
    expect(batches()).toEqual([]);
  });
});

describe('inventory push: bytes svc cannot decode in a column it ignores', () => {
  it('never stop a run; in a column it reads they stop it naming the line', async () => {
    const [a, b] = emu.store.allSkus();
    // 0x81 is neither UTF-8 nor Windows-1252: the file is read as UTF-8.
    const ignored = file(
      'note.csv',
      Buffer.concat([
        Buffer.from(`sku,quantity,Note\n${a},8,x`),
        Buffer.from([0x81]),
        Buffer.from(`\n${b},9,\n`),
      ]),
    );
    const read = await push(ignored);
    expect(read.code, read.stderr).toBe(0);
    expect(emu.store.inventoryBySku(a)?.quantity).toBe(8);
    const used = file(
      'sku.csv',
      Buffer.concat([Buffer.from(`sku,quantity\n${a}`), Buffer.from([0x81]), Buffer.from(',3\n')]),
    );
    const refused = await push(used);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('line 2: not UTF-8 text (byte 0x81)');
  });
});

const start = emulatorPerTest({ rateLimit: false, channelDelayMs: 0 });

describe('inventory push --report at 200,000 rows', () => {
  it('holds every row once, in input order, the store’s SKUs updated and the others failed', async () => {
    const emu = await start();
    const known = emu.store.allSkus().slice(0, 50);
    const rows = 200_000;
    const dir = mkdtempSync(join(tmpdir(), 'svc-push-scale-'));
    dirs.push(dir);
    const skuOf = (index: number) => (index < known.length ? known[index] : `NOPE-${index}`);
    const lines = ['sku,quantity'];
    for (let index = 0; index < rows; index++) lines.push(`${skuOf(index)},${1000 + (index % 7)}`);
    const file = join(dir, 'stock.csv');
    writeFileSync(file, `${lines.join('\n')}\n`);
    const report = join(dir, 'report.csv');
    const result = await runSvc(['inventory', 'push', file, '--report', report, '--json'], {
      env: envFor(emu),
    });
    expect(result.code, result.stderr).toBe(3);
    expect(JSON.parse(result.stdout)).toMatchObject({
      total: rows,
      updated: known.length,
      failed: rows - known.length,
    });
    let index = -1;
    let outOfOrder = 0;
    for await (const text of createInterface({
      input: createReadStream(report),
      crlfDelay: Number.POSITIVE_INFINITY,
    })) {
      if (index === -1) expect(text).toBe('line,key,status,code,message');
      else {
        const [line, key, status] = text.split(',');
        const expected = index < known.length ? 'updated' : 'failed';
        if (line !== String(index + 2) || key !== skuOf(index) || status !== expected) outOfOrder++;
      }
      index++;
    }
    expect(index).toBe(rows);
    expect(outOfOrder).toBe(0);
  }, 180_000);
});
