/**
 * Files as spreadsheets and shipping tools write them, and files a spreadsheet opens cleanly:
 * a stock file exactly as Excel saves it in a European locale (BOM, `;`, CRLF, decimal commas,
 * rows of empty cells) pushed as is, `--ignore` leaving any column unread, a shipping tool's
 * export fulfilled with its own headers, csv for Excel (`--excel`), and an export with titles
 * that pushes back unchanged.
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
  emu = await emulator({ rateLimit: false, orders: 30, products: 20 });
});
beforeEach(() => emu.reset());
afterAll(() => emu.close());

const FIXTURES = join(import.meta.dirname, '..', 'fixtures');

/** A fixture with its placeholders (`SKU_1`, `ORDER_1`…) replaced, written to a fresh file. */
function fromFixture(name: string, values: Record<string, string>): string {
  let text = readFileSync(join(FIXTURES, name), 'utf8');
  for (const [placeholder, value] of Object.entries(values)) text = text.replaceAll(placeholder, value);
  return file(name.split('/').at(-1) ?? name, text);
}

/** Writes `content` to a fresh file and returns its path. */
function file(name: string, content: string): string {
  const path = join(tempDir('svc-sheets-'), name);
  writeFileSync(path, content);
  return path;
}

const batches = () => emu.requests({ method: 'POST', path: '/inventory/batch' });
const skus = (count: number) => emu.store.allSkus().slice(0, count);
const storeValues = () =>
  emu.store.allSkus().map((sku) => {
    const item = emu.store.inventoryBySku(sku);
    return { sku, quantity: item?.quantity, price: item?.price };
  });

describe('inventory push: a stock file exactly as Excel saves it', () => {
  it('BOM, ;, CRLF, Qty, decimal commas and rows of empty cells: pushed as is, the empty rows counted', async () => {
    const [a, b, c] = skus(3);
    const path = fromFixture('inventory/excel-semicolon.csv', { SKU_1: a, SKU_2: b, SKU_3: c });
    const env = envFor(emu);
    const result = await runSvc(['inventory', 'push', path, '--map', 'quantity=Qty'], { env });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain('Columns: sku, quantity from "Qty", price; ignoring "Bemerkung".');
    expect(result.stderr).toContain('4 empty rows');
    expect(Number(emu.store.inventoryBySku(a)?.price)).toBe(28.37);
    expect(emu.store.inventoryBySku(a)?.quantity).toBe(12);
    expect(Number(emu.store.inventoryBySku(b)?.price)).toBe(9.5);
    expect(emu.store.inventoryBySku(c)?.quantity).toBe(7);
    expect(result.stderr).toMatch(/3 SKUs in 1 request/);
    expect(batches()).toHaveLength(1);

    const diff = await runSvc(['inventory', 'diff', path, '--map', 'quantity=Qty', '--exit-code'], { env });
    expect(diff.code, diff.stderr).toBe(0);
  });

  it('the dry run says how many empty rows it skipped, in JSON too', async () => {
    const [a, b, c] = skus(3);
    const path = fromFixture('inventory/excel-semicolon.csv', { SKU_1: a, SKU_2: b, SKU_3: c });
    const result = await runSvc(['inventory', 'push', path, '--map', 'quantity=Qty', '--dry-run', '--json'], {
      env: envFor(emu),
    });
    expect(result.code, result.stderr).toBe(0);
    const plan = JSON.parse(result.stdout);
    expect(plan).toMatchObject({ rows: 3, empty_rows_skipped: 4 });
    expect(plan.first_rows[0]).toMatchObject({ sku: a, quantity: 12, price: '28.37' });
  });

  it('a thousands separator is refused by name, and nothing is sent', async () => {
    const [a, b] = skus(2);
    const path = file('stock.csv', `SKU;Quantity;Price\r\n${a};1;1.234,56\r\n${b};2;1.234.567\r\n`);
    const result = await runSvc(['inventory', 'push', path], { env: envFor(emu) });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/line 2: price "1\.234,56" .*thousands separator/);
    expect(result.stderr).toMatch(/line 3: price "1\.234\.567" .*thousands separator/);
    expect(batches()).toEqual([]);
  });

  it('--decimal-comma reads 28,37 in a comma-separated file; without it the message names the flag', async () => {
    const [a] = skus(1);
    const path = file('stock.csv', `sku,quantity,price\n${a},3,"28,37"\n`);
    const env = envFor(emu);
    const refused = await runSvc(['inventory', 'push', path], { env });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--decimal-comma');
    const read = await runSvc(['inventory', 'push', path, '--decimal-comma'], { env });
    expect(read.code, read.stderr).toBe(0);
    expect(Number(emu.store.inventoryBySku(a)?.price)).toBe(28.37);
  });

  it('--ignore price leaves the price column unread, even named price', async () => {
    const [a] = skus(1);
    const before = emu.store.inventoryBySku(a)?.price;
    const path = file('stock.csv', `sku,quantity,price\n${a},41,0.01\n`);
    const result = await runSvc(['inventory', 'push', path, '--ignore', 'price'], { env: envFor(emu) });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain('Columns: sku, quantity; ignoring "price".');
    expect(emu.store.inventoryBySku(a)).toMatchObject({ quantity: 41, price: before });
  });

  it('--ignore Price on the Excel file, and inventory diff takes it too', async () => {
    const [a, b, c] = skus(3);
    const path = fromFixture('inventory/excel-semicolon.csv', { SKU_1: a, SKU_2: b, SKU_3: c });
    const env = envFor(emu);
    emu.store.locateSku(a)!.variant.price = '1.00';
    const diff = await runSvc(
      ['inventory', 'diff', path, '--map', 'quantity=Qty', '--ignore', 'Price', '--json'],
      { env },
    );
    expect(diff.code, diff.stderr).toBe(0);
    expect(diff.stderr).toContain('ignoring "Price", "Bemerkung"');
    const { summary, changes } = JSON.parse(diff.stdout);
    expect(summary.price_changed).toBe(0);
    expect(changes.filter((change: { price_after?: string }) => change.price_after !== undefined)).toEqual(
      [],
    );
  });
});

describe('orders fulfill --file: a shipping tool export as it comes', () => {
  const awaiting = () =>
    [...emu.store.orders.values()].filter((order) => order.status === 'awaiting_shipment');

  it('Order ID,Tracking Number,Carrier,Weight is read by its headers; the columns are named before sending', async () => {
    const [one, two] = awaiting();
    const path = fromFixture('orders/shipstation-export.csv', { ORDER_1: one.id, ORDER_2: two.id });
    const result = await runSvc(['orders', 'fulfill', '--file', path], { env: envFor(emu) });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain(
      'Columns: order_id from "Order ID", tracking_number from "Tracking Number", carrier; ignoring "Weight".',
    );
    expect(emu.store.orders.get(one.id)).toMatchObject({
      status: 'shipped',
      tracking: { number: '1Z999AA10123456784', carrier: 'UPS' },
    });
    expect(emu.store.orders.get(two.id)?.tracking?.carrier).toBe('USPS');
  });

  it('headers of its own: read as the fields they name, with a notice; --map names them too', async () => {
    const [one] = awaiting();
    const path = fromFixture('orders/shipments-own-names.csv', { ORDER_1: one.id });
    const env = envFor(emu);
    const read = await runSvc(['orders', 'fulfill', '--file', path, '--dry-run'], { env });
    expect(read.code, read.stderr).toBe(0);
    expect(read.stderr).toContain(
      'Columns: order_id from "Order Number", tracking_number from "Tracking No", carrier from "Shipping Carrier"',
    );
    expect(emu.requests({ method: 'POST' })).toEqual([]);
    const dry = await runSvc(
      [
        'orders',
        'fulfill',
        '--file',
        path,
        '--map',
        'order_id=Order Number,tracking_number=tracking no,carrier=Shipping Carrier',
        '--dry-run',
        '--json',
      ],
      { env },
    );
    expect(dry.code, dry.stderr).toBe(0);
    expect(JSON.parse(dry.stdout)).toMatchObject({
      columns: { order_id: 'Order Number', tracking_number: 'Tracking No', carrier: 'Shipping Carrier' },
      ignored_columns: ['Service'],
    });
    const sent = await runSvc(
      [
        'orders',
        'fulfill',
        '--file',
        path,
        '--map',
        'order_id=Order Number,tracking_number=tracking no,carrier=Shipping Carrier',
      ],
      { env },
    );
    expect(sent.code, sent.stderr).toBe(0);
    expect(emu.store.orders.get(one.id)?.tracking?.number).toBe('1Z999AA10123456784');
  });
});

describe('exports a spreadsheet opens cleanly', () => {
  /** The order the list shows first gets a buyer name a spreadsheet would run as a formula. */
  function hostileBuyer(): string {
    const newest = [...emu.store.orders.values()].sort((x, y) => y.updated_at.localeCompare(x.updated_at))[0];
    newest.buyer.name = '=HYPERLINK("http://evil.example","Müller")';
    return newest.id;
  }

  it('--excel: a BOM, the address in dot-path columns, formula-shaped cells kept as text', async () => {
    const id = hostileBuyer();
    const result = await runSvc(['orders', 'list', '--show-buyer', '--excel', '--all'], { env: envFor(emu) });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout.startsWith('\uFEFFid,')).toBe(true);
    const [header, ...rows] = result.stdout.slice(1).trimEnd().split('\n');
    const columns = header.split(',');
    expect(columns).toEqual(expect.arrayContaining(['buyer.address.city', 'buyer.address.postal_code']));
    expect(columns).not.toContain('buyer.address');
    const row = rows.find((line) => line.startsWith(`${id},`));
    expect(row).toContain(`"'=HYPERLINK(""http://evil.example"",""Müller"")"`);
    expect(result.stdout).not.toContain('{"');
  });

  it('-o csv without --excel stays exact (no BOM, cells as given), and flattens too; tsv flattens', async () => {
    const id = hostileBuyer();
    const csv = await runSvc(['orders', 'list', '--show-buyer', '-o', 'csv', '--all'], { env: envFor(emu) });
    expect(csv.code, csv.stderr).toBe(0);
    expect(csv.stdout.startsWith('id,')).toBe(true);
    expect(csv.stdout.split('\n')[0].split(',')).toContain('buyer.address.city');
    const row = csv.stdout.split('\n').find((line) => line.startsWith(`${id},`));
    expect(row).toContain('"=HYPERLINK(""http://evil.example"",""Müller"")"');
    const tsv = await runSvc(['orders', 'list', '--show-buyer', '-o', 'tsv'], { env: envFor(emu) });
    expect(tsv.stdout.split('\n')[0].split('\t')).toContain('buyer.address.line1');
  });

  it('--fields naming an object gives its fields as columns in csv', async () => {
    const result = await runSvc(
      ['orders', 'list', '--show-buyer', '-o', 'csv', '--fields', 'id,buyer.address', '--limit', '3'],
      { env: envFor(emu) },
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout.split('\n')[0]).toBe(
      'id,buyer.address.name,buyer.address.line1,buyer.address.line2,buyer.address.city,buyer.address.region,buyer.address.postal_code,buyer.address.country,buyer.address.phone',
    );
  });

  it('--excel goes with csv only', async () => {
    const result = await runSvc(['orders', 'list', '--excel', '--json'], { env: envFor(emu) });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--excel writes csv');
  });

  it('inventory export --with-titles pushes back unchanged: the extra columns named as ignored', async () => {
    const env = envFor(emu);
    const exported = await runSvc(['inventory', 'export', '--with-titles'], { env });
    expect(exported.code, exported.stderr).toBe(0);
    const [header, first] = exported.stdout.split('\n');
    expect(header).toBe('sku,quantity,price,title,options');
    const sku = first.split(',')[0];
    const located = emu.store.locateSku(sku);
    expect(first).toContain(located?.product.title);
    const path = file('snapshot.csv', exported.stdout);
    const before = storeValues();

    const pushed = await runSvc(['inventory', 'push', path], { env });
    expect(pushed.code, pushed.stderr).toBe(0);
    expect(pushed.stderr).toContain('Columns: sku, quantity, price; ignoring "title", "options".');
    expect(storeValues()).toEqual(before);
    const diff = await runSvc(['inventory', 'diff', path, '--exit-code'], { env });
    expect(diff.code, diff.stderr).toBe(0);
  });
});
