/**
 * `inventory push` reads the files operators have: headers in their own words and languages
 * read as the fields they name, number formats from spreadsheets refused with the fix, a file
 * Excel saved in its Western code page read as such; and files that are not what they seem.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../../src/emulator/index.js';
import { emulator, envFor } from '../../helpers/emulator.js';
import { call } from '../../helpers/service-api.js';
import { runSvc } from '../../helpers/svc.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { batches } from './push-stock.js';

describe('inventory push with the files operators have', () => {
  let shared: RunningEmulator;
  beforeAll(async () => {
    shared = await emulator({ rateLimit: false, orders: 5, products: 10 });
  });
  beforeEach(() => shared.reset());
  afterAll(() => shared.close());

  /** Writes `content` (text or raw bytes) to a fresh file and returns its path. */
  const file = (name: string, content: string | Buffer): string => {
    const path = join(tempDir('svc-push-'), name);
    writeFileSync(path, content);
    return path;
  };
  const posted = () => shared.requests(batches);
  const push = (path: string, ...more: string[]) =>
    runSvc(['inventory', 'push', path, ...more], { env: envFor(shared) });

  describe('inventory push: headers it knows, it reads', () => {
    it('Item SKU, Qty and Preis are read as sku, quantity and price, with a notice', async () => {
      const [a, b] = shared.store.allSkus();
      const result = await push(file('stock.csv', `Item SKU,Qty,Preis\n${a},5,9.99\n${b},7,4.50\n`));
      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr).toContain(
        'Columns: sku from "Item SKU", quantity from "Qty", price from "Preis".',
      );
      expect(shared.store.inventoryBySku(a)).toMatchObject({ quantity: 5, price: '9.99' });
    });

    it('Bestand and Quantité too; two candidates for one field is an error naming both and the --map', async () => {
      const [a] = shared.store.allSkus();
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
      expect(posted()).toEqual([]);
    });

    it('no column read as sku: the error quotes the header and the --map to write', async () => {
      const [a] = shared.store.allSkus();
      const result = await push(file('own.csv', `Artikel,Menge\n${a},3\n`));
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('no column is read as sku; the header has "Artikel", "Menge"');
      expect(result.stderr).toContain('--map sku=Artikel');
    });
  });

  describe('inventory push: a file Excel saved in its own code page', () => {
    it('Windows-1252 with ö in an ignored column and in the title column is read, with a notice naming --encoding', async () => {
      const [a, b] = shared.store.allSkus();
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
      expect(shared.store.inventoryBySku(a)?.quantity).toBe(4);
      expect(shared.store.inventoryBySku(b)?.quantity).toBe(6);
    });

    it('UTF-16 with or without a byte order mark is refused by name', async () => {
      const [a] = shared.store.allSkus();
      const text = `sku,quantity\n${a},1\n`;
      const withBom = await push(
        file('bom.csv', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')])),
      );
      expect(withBom.code).toBe(2);
      expect(withBom.stderr).toContain('UTF-16');
      const bare = await push(file('bare.csv', Buffer.from(text, 'utf16le')));
      expect(bare.code).toBe(2);
      expect(bare.stderr).toContain('is UTF-16 text');
      expect(posted()).toEqual([]);
    });
  });

  describe('inventory push: number formats from Google Sheets and Excel are named, with the fix', () => {
    it('$28.37, 28,37 €, 1,200 and 1.234,56 are refused, each message saying what to do', async () => {
      const [a, b, c] = shared.store.allSkus();
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
      expect(posted()).toEqual([]);
    });
  });

  describe('inventory push: bytes svc cannot decode in a column it ignores', () => {
    it('never stop a run; in a column it reads they stop it naming the line', async () => {
      const [a, b] = shared.store.allSkus();
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
      expect(shared.store.inventoryBySku(a)?.quantity).toBe(8);
      const used = file(
        'sku.csv',
        Buffer.concat([Buffer.from(`sku,quantity\n${a}`), Buffer.from([0x81]), Buffer.from(',3\n')]),
      );
      const refused = await push(used);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain('line 2: not UTF-8 text (byte 0x81)');
    });
  });
});

describe('inventory push: files that are not what they seem', () => {
  let emu: RunningEmulator;
  beforeAll(async () => {
    emu = await emulator({ rateLimit: false });
  });
  beforeEach(() => emu.reset());
  afterAll(() => emu.close());

  /** Writes `content` (text or raw bytes) to a fresh file and returns its path. */
  const file = (name: string, content: string | Buffer): string => {
    const path = join(tempDir('svc-inv-input-'), name);
    writeFileSync(path, content);
    return path;
  };
  const batches = () => emu.requests({ method: 'POST', path: '/inventory/batch' });
  const skus = (count: number) => emu.store.allSkus().slice(0, count);

  describe('inventory push: columns are accounted for', () => {
    it('SKU;Stock Count;Price exits 2 naming --map quantity=…, and sends nothing', async () => {
      const [a, b] = skus(2);
      // Qty, Stock, Bestand are read as quantity (test/commands/inventory/push.test.ts); this is not one of them.
      const path = file('stock.csv', `SKU;Stock Count;Price\n${a};5;9.99\n${b};7;4.50\n`);
      const result = await runSvc(['inventory', 'push', path], { env: envFor(emu) });
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('the column "Stock Count" looks like quantity');
      expect(result.stderr).toContain("--map quantity='Stock Count'");
      expect(result.stderr).toContain("--ignore 'Stock Count'");
      expect(batches()).toEqual([]);
    });

    it('with --map the quantities are set; with --ignore only the prices, and the plan names both', async () => {
      const [a, b] = skus(2);
      const path = file('stock.csv', `SKU;Qty;Price;Note\n${a};5;9.99;x\n${b};7;4.50;y\n`);
      const before = emu.store.inventoryBySku(a)?.quantity;
      const ignored = await runSvc(['inventory', 'push', path, '--ignore', 'qty'], { env: envFor(emu) });
      expect(ignored.code, ignored.stderr).toBe(0);
      expect(ignored.stderr).toContain('Columns: sku, price; ignoring "Qty", "Note".');
      expect(emu.store.inventoryBySku(a)).toMatchObject({ quantity: before, price: '9.99' });
      const mapped = await runSvc(['inventory', 'push', path, '--map', 'quantity=Qty'], { env: envFor(emu) });
      expect(mapped.code, mapped.stderr).toBe(0);
      expect(mapped.stderr).toContain('quantity from "Qty"');
      expect(emu.store.inventoryBySku(a)).toMatchObject({ quantity: 5, price: '9.99' });
      expect(emu.store.inventoryBySku(b)).toMatchObject({ quantity: 7, price: '4.50' });
    });

    it('a header named twice exits 2 naming both columns', async () => {
      const [a] = skus(1);
      const path = file('stock.csv', `sku,quantity,Quantity\n${a},5,6\n`);
      const result = await runSvc(['inventory', 'push', path], { env: envFor(emu) });
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('the column "Quantity" appears twice (columns 2 and 3)');
      expect(batches()).toEqual([]);
    });

    it('--map naming a column the header does not have exits 2 instead of leaving that field out', async () => {
      const [a] = skus(1);
      const path = file('stock.csv', `sku,stock_level,price\n${a},5,1.00\n`);
      const result = await runSvc(['inventory', 'push', path, '--map', 'quantity=stock'], {
        env: envFor(emu),
      });
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('no "stock" column (--map quantity=stock)');
    });
  });

  describe('inventory push: --map says one thing once', () => {
    it('a field mapped twice, or one column mapped to two fields, exits 2 and sends nothing', async () => {
      const [a] = skus(1);
      const path = file('stock.csv', `sku,Qty,Stock\n${a},5,6\n`);
      const env = envFor(emu);
      const twice = await runSvc(['inventory', 'push', path, '--map', 'quantity=Qty,quantity=Stock'], {
        env,
      });
      expect(twice.code).toBe(2);
      expect(twice.stderr).toContain('--map names quantity twice ("qty" and "stock")');
      const both = await runSvc(
        ['inventory', 'push', path, '--map', 'quantity=Qty,price=Qty', '--ignore', 'Stock'],
        {
          env,
        },
      );
      expect(both.code).toBe(2);
      expect(both.stderr).toContain('the column "Qty" would be read as both quantity and price');
      expect(batches()).toEqual([]);
    });
  });

  describe('inventory push: text that is not what it seems', () => {
    it('a Latin-1 file is read as Windows-1252 with a notice; --encoding utf-8 refuses it naming the line', async () => {
      const create = await call(emu, 'POST', '/products', {
        body: { title: 'Café', variants: [{ sku: 'CAFÉ-1', price: '3.00', quantity: 1 }] },
      });
      expect(create.status).toBe(201);
      const latin1 = Buffer.concat([
        Buffer.from('sku,quantity\r\n'),
        Buffer.from([0x43, 0x41, 0x46, 0xc9, 0x2d, 0x31]),
        Buffer.from(',5\r\n'),
      ]);
      const path = file('excel.csv', latin1);
      const refused = await runSvc(['inventory', 'push', path, '--encoding', 'utf-8'], { env: envFor(emu) });
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain('line 2: not UTF-8 text (byte 0xC9)');
      expect(refused.stderr).toContain('--encoding latin1');
      expect(batches()).toEqual([]);
      const read = await runSvc(['inventory', 'push', path], { env: envFor(emu) });
      expect(read.code, read.stderr).toBe(0);
      expect(read.stderr).toContain('reads as Windows-1252');
      expect(emu.store.inventoryBySku('CAFÉ-1')).toMatchObject({ quantity: 5 });
    });

    it('SKUs with edge spaces, a zero-width space, a NUL or a BOM inside exit 2, each line named', async () => {
      const [a, b, c, d, e] = skus(5);
      const rows = [` ${a} ,1`, `${b}\u200B,2`, `${c}\u0000,3`, `${d}\uFEFF,4`, `${e},5`, `${e} ,6`];
      const path = file('stock.csv', `sku,quantity\n${rows.join('\n')}\n`);
      const result = await runSvc(['inventory', 'push', path], { env: envFor(emu) });
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(`line 2: SKU " ${a} " has spaces at its start or end`);
      expect(result.stderr).toContain(
        `line 3: SKU "${b}\\u{200B}" holds an invisible or control character (U+200B zero-width space)`,
      );
      expect(result.stderr).toContain('line 4: SKU');
      expect(result.stderr).toContain('(U+0000 NUL)');
      expect(result.stderr).toContain('line 5: SKU');
      expect(result.stderr).toContain('(U+FEFF byte order mark)');
      expect(result.stderr).toContain(`line 7: SKU "${e} " has spaces`);
      expect(result.stderr).not.toMatch(/line 6:/);
      expect(batches()).toEqual([]);
    });

    it('any mix of line endings reads as the lines a person sees, and sets exactly those values', async () => {
      const [a, b, c, d] = skus(4);
      const path = file('mixed.csv', `sku,quantity\r\n${a},5\n${b},6\r${c},7\r\n${d},8`);
      const result = await runSvc(['inventory', 'push', path, '--json'], { env: envFor(emu) });
      expect(result.code, result.stderr).toBe(0);
      expect(JSON.parse(result.stdout)).toMatchObject({ total: 4, failed: 0 });
      expect([a, b, c, d].map((sku) => emu.store.inventoryBySku(sku)?.quantity)).toEqual([5, 6, 7, 8]);
    });
  });

  describe('inventory push: a failed check reports every bad line', () => {
    it('5,000 bad lines: 50 on stderr, all 5,000 in --report and in the JSON error, nothing sent', async () => {
      const rows = Array.from({ length: 5000 }, (_, i) => `BAD-${i},x`).join('\n');
      const path = file('bad.csv', `sku,quantity\n${rows}\n`);
      const report = join(tempDir('svc-inv-report-'), 'report.csv');
      const result = await runSvc(['inventory', 'push', path, '--report', report, '--json'], {
        env: envFor(emu),
      });
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('… and 4950 more');
      expect(result.stderr).toContain(`every bad line is in ${report}`);
      const lines = readFileSync(report, 'utf8').trim().split('\r\n');
      expect(lines[0]).toBe('line,key,status,code,message');
      expect(lines).toHaveLength(5001);
      expect(lines[1]).toMatch(/^2,BAD-0,invalid,invalid_quantity,"quantity ""x"" is not a whole number/);
      expect(lines[5000]).toMatch(/^5001,BAD-4999,invalid,/);
      const error = JSON.parse(result.stderr.trimEnd().split('\n').at(-1) ?? '').error;
      expect(error.problems).toHaveLength(5000);
      expect(error.problems[4999]).toMatchObject({ line: 5001, key: 'BAD-4999', code: 'invalid_quantity' });
      expect(batches()).toEqual([]);
    });
  });
});
