/**
 * Input files across the commands that read them: a row wider than its header is refused in
 * stock, shipments and product files alike (exit 2, the line named); plan lines count rows in
 * plain words in diff and push; a file svc writes never replaces the file it reads, or another.
 * What `inventory push` alone checks is in test/commands/inventory/push.test.ts.
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
