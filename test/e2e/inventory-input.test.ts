/**
 * Inventory files that are not what they seem are refused before anything is sent (exit 2,
 * the line named), and what is read is named: columns used and left out, any mix of line
 * endings, text that is not UTF-8, SKUs with hidden characters; a failed check reports every line.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { emulator, envFor } from '../helpers/emulator.js';
import { runSvc } from '../helpers/svc.js';
import { tempDir } from '../helpers/temp-dir.js';

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await emulator({ rateLimit: false });
});
beforeEach(() => emu.reset());
afterAll(() => emu.close());

/** Writes `content` (text or raw bytes) to a fresh file and returns its path. */
function file(name: string, content: string | Buffer): string {
  const path = join(tempDir('svc-inv-input-'), name);
  writeFileSync(path, content);
  return path;
}

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
    const result = await runSvc(['inventory', 'push', path, '--map', 'quantity=stock'], { env: envFor(emu) });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('no "stock" column (--map quantity=stock)');
  });
});

describe('inventory push: --map says one thing once', () => {
  it('a field mapped twice, or one column mapped to two fields, exits 2 and sends nothing', async () => {
    const [a] = skus(1);
    const path = file('stock.csv', `sku,Qty,Stock\n${a},5,6\n`);
    const env = envFor(emu);
    const twice = await runSvc(['inventory', 'push', path, '--map', 'quantity=Qty,quantity=Stock'], { env });
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

describe('a row wider than its header', () => {
  it('an unquoted 1,299.00 shifts the cells: exit 2 naming the line, instead of a price of 1', async () => {
    const [a, b] = skus(2);
    // Trailing empty cells (as spreadsheets add) are no shift.
    const path = file('stock.csv', `sku,quantity,price\n${a},5,1,299.00\n${b},5,9.99,,\n`);
    const result = await runSvc(['inventory', 'push', path], { env: envFor(emu) });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('line 2: 4 cells where the header has 3');
    expect(result.stderr).not.toContain('line 3');
    expect(batches()).toEqual([]);
  });

  it('the same in shipments and product files', async () => {
    const shipments = file('ship.csv', 'order_id,tracking_number,carrier\nord_1,1Z 1,UPS,Ground\n');
    const products = file('catalog.csv', 'handle,title,sku,price\nt,Tee,TEE-R2-1,1,299.00\n');
    for (const args of [
      ['orders', 'fulfill', '--file', shipments, '--dry-run'],
      ['products', 'upsert', products, '--dry-run'],
    ]) {
      const result = await runSvc(args, { env: envFor(emu) });
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toMatch(/line 2: (4|5) cells where the header has (3|4)/);
    }
  });
});

describe('plan lines in plain words', () => {
  it('one row is one SKU and one row, in the question, the summary and the diff', async () => {
    const [a] = skus(1);
    const quantity = (emu.store.inventoryBySku(a)?.quantity ?? 0) + 1;
    const path = file('stock.csv', `sku,quantity\n${a},${quantity}\n`);
    const env = envFor(emu);
    const diff = await runSvc(['inventory', 'diff', path], { env });
    expect(diff.stderr).toMatch(/^1 row: 0 unchanged, 1 to change/m);
    const push = await runSvc(['inventory', 'push', path], { env });
    expect(push.code, push.stderr).toBe(0);
    expect(push.stderr).toContain('Push 1 SKU in 1 request with a LIVE key');
  });
});

describe('files written never replace the file read, or each other', () => {
  it('--report or --backup naming the input, or both naming one file, exits 2; the file stays', async () => {
    const [a] = skus(1);
    const text = `sku,quantity\n${a},5\n`;
    const path = file('stock.csv', text);
    const env = envFor(emu);
    const sameAsInput = await runSvc(['inventory', 'push', path, '--report', path], { env });
    expect(sameAsInput.code).toBe(2);
    expect(sameAsInput.stderr).toContain(`--report ${path} is the file being read`);
    // Another spelling of the same path is the same file.
    const dotted = join(path, '..', '.', 'stock.csv');
    const backup = await runSvc(['inventory', 'push', path, '--changed-only', '--backup', dotted], { env });
    expect(backup.code).toBe(2);
    expect(backup.stderr).toContain(`--backup ${dotted} is the file being read`);
    const out = join(path, '..', 'out.csv');
    const both = await runSvc(['inventory', 'push', path, '--backup', out, '--report', out], { env });
    expect(both.code).toBe(2);
    expect(both.stderr).toContain(`--report and --backup both name ${out}`);
    expect(readFileSync(path, 'utf8')).toBe(text);
    expect(batches()).toEqual([]);
  });

  it('a file with bad lines keeps them: the report of bad lines does not replace it', async () => {
    const text = 'sku,quantity\nA-1,x\n';
    const path = file('stock.csv', text);
    const result = await runSvc(['inventory', 'push', path, '--report', path], { env: envFor(emu) });
    expect(result.code).toBe(2);
    expect(readFileSync(path, 'utf8')).toBe(text);
  });

  it('orders fulfill --file and products upsert refuse a --report that is their input', async () => {
    const shipments = file('ship.csv', 'order_id,tracking_number,carrier\nord_1,1Z1,UPS\n');
    const products = file('catalog.csv', 'handle,title,sku\nt,Tee,TEE-R2-1\n');
    for (const args of [
      ['orders', 'fulfill', '--file', shipments, '--report', shipments],
      ['products', 'upsert', products, '--report', products],
    ]) {
      const result = await runSvc(args, { env: envFor(emu) });
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toContain('is the file being read');
    }
    expect(readFileSync(shipments, 'utf8')).toContain('ord_1');
    expect(readFileSync(products, 'utf8')).toContain('TEE-R2-1');
    expect(emu.requests()).toEqual([]);
  });
});

describe('inventory push: text that is not what it seems', () => {
  it('a Latin-1 file is read as Windows-1252 with a notice; --encoding utf-8 refuses it naming the line', async () => {
    const create = await fetch(`${emu.url}/rest/v1/products`, {
      method: 'POST',
      headers: { authorization: `Bearer ${emu.keys.live}`, 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Café', variants: [{ sku: 'CAFÉ-1', price: '3.00', quantity: 1 }] }),
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
