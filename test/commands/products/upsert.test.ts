/**
 * `products upsert --create-unmatched` after a lost answer: a product is never claimed by
 * guess. One product is never claimed for two lines, nor one this run already accounted for;
 * when the read-back cannot tell, the lines are `write_unconfirmed` (exit 3), named, with the
 * way to check.
 */
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../../src/emulator/index.js';
import { type DroppingProxy, droppingProxy } from '../../helpers/dropping-proxy.js';
import { emulatorPerTest, envFor } from '../../helpers/emulator.js';
import { call } from '../../helpers/service-api.js';
import { runSvc } from '../../helpers/svc.js';
import { tempDir } from '../../helpers/temp-dir.js';
import {
  emu as productsEmu,
  fixture as productsFixture,
  svc as productsSvc,
  useProductsEmulator,
} from './products-emulator.js';

const start = emulatorPerTest({ rateLimit: false });
const proxies: DroppingProxy[] = [];
afterEach(async () => {
  await Promise.all(proxies.splice(0).map((proxy) => proxy.close()));
});

const scratch = () => tempDir('svc-upsert-lost-');
const tee = (sku: string) => ({ title: `Tee ${sku}`, variants: [{ sku, price: '10.00' }] });
const mugs = (emu: RunningEmulator) =>
  [...emu.store.products.values()].filter((product) => product.title === 'Mug').map((product) => product.id);

/** Upserts `items` through a proxy dropping the POST whose body holds `marker`, `when` given. */
async function upsertDropping(
  emu: RunningEmulator,
  items: unknown[],
  marker: string,
  when: 'before' | 'after',
) {
  const proxy = await droppingProxy(emu.url, [
    { method: 'POST', path: '/rest/v1/products/batch', body: (text) => text.includes(marker), when },
  ]);
  proxies.push(proxy);
  const dir = scratch();
  const path = join(dir, 'catalog.jsonl');
  writeFileSync(path, `${items.map((item) => JSON.stringify(item)).join('\n')}\n`);
  const report = join(dir, 'report.csv');
  const result = await runSvc(
    ['products', 'upsert', path, '--create-unmatched', '--json', '--report', report],
    { env: { ...envFor(emu), SVC_BASE_URL: proxy.url } },
  );
  expect(proxy.dropped()).toBe(1);
  const rows = parse(readFileSync(report, 'utf8'), { columns: true }) as Array<Record<string, string>>;
  const row = (line: number) => rows.find((candidate) => Number(candidate.line) === line);
  return { result, rows, row };
}

describe('products upsert --create-unmatched after a lost answer', () => {
  it('two lines of one title in two chunks, the second chunk dropped: never one product for both', async () => {
    const emu = await start();
    const items = [
      { title: 'Mug' },
      ...Array.from({ length: 99 }, (_, i) => tee(`FIRST-${i}`)),
      { title: 'Mug' },
      ...Array.from({ length: 20 }, (_, i) => tee(`SECOND-${i}`)),
    ];
    const { result, row } = await upsertDropping(emu, items, 'SECOND-', 'before');
    expect(result.code, result.stderr).toBe(0);
    const first = row(1);
    const second = row(101);
    expect(first).toMatchObject({ status: 'created' });
    expect(second).toMatchObject({ status: 'created' });
    // The dropped chunk created nothing, so line 101 was sent again and made its own product.
    expect(second?.message).not.toBe(first?.message);
    expect(mugs(emu).sort()).toEqual([first?.message, second?.message].sort());
    expect(emu.store.locateSku('SECOND-19')).toBeDefined();
  });

  it('when the read-back cannot tell (another product of that title appeared), the line is write_unconfirmed: exit 3, named, with the check', async () => {
    const emu = await start();
    // Someone else made a "Mug" a moment ago.
    const made = await call(emu, 'POST', '/products', { body: { title: 'Mug' } });
    expect(made.status).toBe(201);
    const items = [tee('ONLY-0'), { title: 'Mug' }];
    const { result, row } = await upsertDropping(emu, items, 'ONLY-0', 'after');
    expect(result.code, result.stderr).toBe(3);
    expect(row(2)).toMatchObject({ status: 'failed', code: 'write_unconfirmed' });
    // The line with a SKU went again safely: the resend matched what the lost request made.
    expect(row(1)).toMatchObject({ status: 'updated' });
    expect(result.stderr).toMatch(/line 2: "Mug": write_unconfirmed: .*cannot tell/);
    expect(result.stderr).toContain('svc products list');
    // Nothing was sent again for it: the service holds the run's Mug and the other one, no third.
    expect(mugs(emu)).toHaveLength(2);
    expect(JSON.parse(result.stdout)).toMatchObject({ total: 2, failed: 1, updated: 1 });
  });

  it('two lines of one title in one lost chunk that landed: each claims a product of its own', async () => {
    const emu = await start();
    const items = [{ title: 'Mug' }, { title: 'Mug' }, tee('PAIR-0')];
    const { result, row } = await upsertDropping(emu, items, 'PAIR-0', 'after');
    expect(result.code, result.stderr).toBe(0);
    const ids = [row(1)?.message, row(2)?.message];
    expect(new Set(ids).size).toBe(2);
    expect(mugs(emu).sort()).toEqual([...ids].sort());
  });
});

describe('products upsert: files as Excel saves them', () => {
  /** A catalog CSV of `rows` (after the header) as bytes: the cells in Windows-1252, `raw` bytes where asked. */
  const catalog = (dir: string, rows: Buffer[]) => {
    const path = join(dir, 'catalog.csv');
    const header = Buffer.from('handle,title,sku,price,\r\n', 'latin1');
    writeFileSync(
      path,
      Buffer.concat([header, ...rows.map((row) => Buffer.concat([row, Buffer.from('\r\n')]))]),
    );
    return path;
  };

  it('reads a Windows-1252 file with ö in the title and in an ignored column, saying so and naming --encoding', async () => {
    const emu = await start();
    const path = catalog(scratch(), [Buffer.from('bj,Björk tee,BJ-1,10.00,Grüße aus Köln', 'latin1')]);
    const env = envFor(emu);
    const dry = await runSvc(['products', 'upsert', path, '--dry-run', '--json'], { env });
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stderr).toMatch(/Windows-1252.*--encoding/);
    expect(JSON.parse(dry.stdout).first_products[0].title).toBe('Björk tee');
    const live = await runSvc(['products', 'upsert', path], { env });
    expect(live.code, live.stderr).toBe(0);
    expect([...emu.store.products.values()].some((product) => product.title === 'Björk tee')).toBe(true);
  });

  it('bytes that are not text in an ignored column never stop it; in the title they do, naming the line', async () => {
    const emu = await start();
    const env = envFor(emu);
    // 0x81 is no Windows-1252 character: the file is read as UTF-8, and the byte does not decode.
    const stray = (before: string, after: string) =>
      Buffer.concat([Buffer.from(before), Buffer.from([0x81]), Buffer.from(after)]);
    const ignored = catalog(scratch(), [stray('ig,Plain tee,IG-1,10.00,note ', '')]);
    const read = await runSvc(['products', 'upsert', ignored, '--dry-run'], { env });
    expect(read.code, read.stderr).toBe(0);
    const used = catalog(scratch(), [stray('ti,Plain ', 'tee,TI-1,10.00,')]);
    const refused = await runSvc(['products', 'upsert', used, '--dry-run'], { env });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('line 2: not UTF-8 text (byte 0x81)');
    expect(emu.requests({ method: 'POST' })).toEqual([]);
  });
});

describe('products upsert, files of products', () => {
  useProductsEmulator();
  const bulkDir = tempDir('svc-products-');

  const bulkFile = (count: number) => {
    const file = join(bulkDir, `bulk-${count}.jsonl`);
    const lines = Array.from({ length: count }, (_, i) =>
      JSON.stringify({
        title: `Bulk ${i}`,
        variants: ['S', 'M'].map((size) => ({
          sku: `BULK-${i}-${size}`,
          price: '5.00',
          options: { Size: size },
        })),
      }),
    );
    writeFileSync(file, `${lines.join('\n')}\n`);
    return file;
  };

  it('upserts 250 products in exactly 3 requests, with a report of every product', async () => {
    const report = join(bulkDir, 'report.csv');
    const result = await productsSvc(['products', 'upsert', bulkFile(250), '--report', report]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain('250 products in 3 requests');
    expect(result.stderr).toContain('250 created');
    expect(productsEmu.requests({ route: 'POST /products/batch' })).toHaveLength(3);
    expect(productsEmu.store.locateSku('BULK-249-M')).toBeDefined();
    const rows = readFileSync(report, 'utf8').trim().split(/\r?\n/);
    expect(rows[0]).toBe('line,key,status,code,message');
    expect(rows).toHaveLength(251);
    expect(rows[1]).toMatch(/^1,BULK-0-S,created,,prod_/);

    const again = await productsSvc(['products', 'upsert', bulkFile(250), '--json']);
    expect(JSON.parse(again.stdout)).toMatchObject({ total: 250, created: 0, updated: 250, requests: 3 });
  });

  it('--dry-run checks and plans without sending', async () => {
    const result = await productsSvc(['products', 'upsert', bulkFile(250), '--dry-run', '--json']);
    expect(result.code, result.stderr).toBe(0);
    // It reads the catalog to judge each product (reads only), and writes nothing.
    expect(JSON.parse(result.stdout)).toMatchObject({
      products: 250,
      variants: 500,
      requests: 3,
      would_send: 250,
      would_fail: 0,
    });
    expect(productsEmu.requests().filter((request) => request.method !== 'GET')).toHaveLength(0);
  });

  it('names the line of malformed JSON and sends nothing (exit 2)', async () => {
    // Stored as .txt so that the linter leaves the broken JSON alone.
    const file = join(bulkDir, 'malformed.json');
    copyFileSync(productsFixture('malformed-array.json.txt'), file);
    const result = await productsSvc(['products', 'upsert', file]);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain('malformed.json line 4 column 3: malformed JSON');
    const lines = await productsSvc(['products', 'upsert', productsFixture('malformed.jsonl')]);
    expect(lines.code, lines.stderr).toBe(2);
    expect(lines.stderr).toContain('line 3: malformed JSON at column 50');
    expect(productsEmu.requests()).toHaveLength(0);
  });

  it('refuses a SKU in two products of the file, naming both lines (exit 2)', async () => {
    const result = await productsSvc(['products', 'upsert', productsFixture('duplicate-sku.jsonl')]);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain('line 3: SKU DUP-SHARED is also on line 1');
    expect(productsEmu.requests()).toHaveLength(0);
  });

  it('reads the CSV layout: one row per variant grouped by handle, options as columns', async () => {
    const result = await productsSvc(['products', 'upsert', productsFixture('catalog.csv')]);
    expect(result.code, result.stderr).toBe(0);
    const tee = productsEmu.store.locateSku('CSV-TEE-M-BLUE')?.product;
    expect(tee).toMatchObject({ title: 'CSV tee', brand: 'Acme', tags: ['cotton', 'summer'] });
    expect(tee?.variants.map((v) => v.options)).toContainEqual({ Size: 'M', Color: 'Blue' });
    expect(tee?.images).toHaveLength(1);
    expect(productsEmu.store.locateSku('CSV-MUG')?.variant).toMatchObject({ price: '9.50', quantity: 12 });
  });

  it('exits 3 when an item fails on the service, reporting it with its code', async () => {
    const [a, b] = [...productsEmu.store.products.values()];
    const file = join(bulkDir, 'split.json');
    const items = [
      { title: 'Fine', variants: [{ sku: 'SPLIT-OK' }] },
      { title: 'Straddles two products', variants: [{ sku: a.variants[0].sku }, { sku: b.variants[0].sku }] },
    ];
    // One product per line: the failing one starts on line 3.
    writeFileSync(file, `[\n${items.map((item) => JSON.stringify(item)).join(',\n')}\n]\n`);
    const report = join(bulkDir, 'split-report.csv');
    const result = await productsSvc(['products', 'upsert', file, '--report', report]);
    expect(result.code, result.stderr).toBe(3);
    expect(result.stderr).toContain('1 product failed');
    const rows = readFileSync(report, 'utf8').trim().split(/\r?\n/);
    expect(rows.find((row) => row.includes('failed'))).toMatch(/^3,.+,failed,validation_failed,/);
    expect(productsEmu.store.locateSku('SPLIT-OK')).toBeDefined();
  });

  it('refuses a product without variants (it could never be matched) unless --create-unmatched', async () => {
    const file = join(bulkDir, 'unmatched.jsonl');
    writeFileSync(
      file,
      `${JSON.stringify({ title: 'Gift card' })}\n${JSON.stringify({ title: 'Mug', variants: [{ sku: 'MUG-NEW' }] })}\n`,
    );
    const refused = await productsSvc(['products', 'upsert', file]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('line 1: "Gift card" has no variants');
    expect(refused.stderr).toContain('--create-unmatched');
    expect(productsEmu.requests()).toHaveLength(0);
    const created = await productsSvc(['products', 'upsert', file, '--create-unmatched', '--json']);
    expect(created.code, created.stderr).toBe(0);
    expect(JSON.parse(created.stdout)).toMatchObject({ total: 2, created: 2 });
    expect([...productsEmu.store.products.values()].filter((p) => p.title === 'Gift card')).toHaveLength(1);
  });

  it('names a product by a title of a megabyte in a line, not a megabyte of stderr', async () => {
    const file = join(bulkDir, 'huge-title.jsonl');
    writeFileSync(file, `${JSON.stringify({ title: 'x'.repeat(1_000_000) })}\n`);
    const refused = await productsSvc(['products', 'upsert', file]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/line 1: "x+…" has no variants/);
    expect(refused.stderr.length).toBeLessThan(2000);
    expect(productsEmu.requests()).toHaveLength(0);
  });

  it('after a lost answer, reads back what a product without variants created before sending again', async () => {
    const file = join(bulkDir, 'unmatched-lost.jsonl');
    writeFileSync(
      file,
      `${JSON.stringify({ title: 'Gift card' })}\n${JSON.stringify({ title: 'Mug', variants: [{ sku: 'MUG-LOST' }] })}\n`,
    );
    productsEmu.faults.inject({ method: 'POST', path: '/products/batch', kind: 'drop_after' });
    const result = await productsSvc(['products', 'upsert', file, '--create-unmatched', '--json']);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ total: 2, failed: 0 });
    expect([...productsEmu.store.products.values()].filter((p) => p.title === 'Gift card')).toHaveLength(1);
    expect(productsEmu.store.locateSku('MUG-LOST')).toBeDefined();
    const order = productsEmu.requests().map((r) => `${r.method} ${r.path}`);
    expect(order).toEqual(['POST /products/batch', 'GET /products', 'POST /products/batch']);
  });

  it('with a test key the outcomes are simulated and nothing changes', async () => {
    const result = await productsSvc(
      ['products', 'upsert', productsFixture('catalog.csv'), '--json'],
      'test',
    );
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ total: 2, simulated: 2 });
    expect(productsEmu.store.locateSku('CSV-MUG')).toBeUndefined();
  });
});
