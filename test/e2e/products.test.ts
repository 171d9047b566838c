import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import type { ProductRecord } from '../../src/emulator/model.js';
import { emulator, envFor } from '../helpers/emulator.js';
import { runSvc } from '../helpers/svc.js';
import { tempDir } from '../helpers/temp-dir.js';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'products');
const fixture = (name: string) => join(FIXTURES, name);
const scratch = tempDir('svc-products-');

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await emulator({ channelDelayMs: 200 });
});
beforeEach(() => emu.reset());
afterAll(() => emu.close());

const svc = (args: string[], key: keyof RunningEmulator['keys'] = 'live') =>
  runSvc(args, { env: envFor(emu, key) });
const writes = () => emu.requests().filter((r) => r.method !== 'GET');
const productWith = (test: (p: ProductRecord) => boolean) =>
  [...emu.store.products.values()].find(test) as ProductRecord;

describe('products create, update, delete', () => {
  it('creates a product from a file, then refuses a sparse option matrix naming what is missing', async () => {
    const created = await svc(['products', 'create', '--file', fixture('tee.json'), '--json']);
    expect(created.code, created.stderr).toBe(0);
    const product = JSON.parse(created.stdout);
    expect(emu.store.products.get(product.id)?.variants).toHaveLength(4);

    const sparse = await svc(['products', 'create', '--file', fixture('sparse-matrix.json')]);
    expect(sparse.code, sparse.stderr).toBe(2);
    expect(sparse.stderr).toContain('missing (Color=Red, Size=L), (Color=Blue, Size=M)');
    expect(emu.requests({ route: 'POST /products' })).toHaveLength(1);
  });

  it('refuses a SKU another product holds: the service names the variant (exit 1)', async () => {
    const taken = emu.store.allSkus()[0];
    const file = join(scratch, 'clash.json');
    writeFileSync(file, JSON.stringify({ title: 'Clash', variants: [{ sku: 'FREE-1' }, { sku: taken }] }));
    const result = await svc(['products', 'create', '--file', file]);
    expect(result.code, result.stderr).toBe(1);
    expect(result.stderr).toContain('validation_failed');
    expect(result.stderr).toContain('(variants[1].sku)');
    expect(result.stderr).toContain(emu.store.locateSku(taken)?.product.id);
  });

  it('updates fields with --set and answers with the sync operation', async () => {
    const product = productWith((p) => emu.store.listingsOf(p.id).some((l) => l.status === 'listed'));
    const result = await svc([
      'products',
      'update',
      product.id,
      '--set',
      'title=Blue mug',
      '--set',
      'tags=kitchen,blue',
      '--set',
      'vat_rate=7',
      '--json',
    ]);
    expect(result.code, result.stderr).toBe(0);
    const answer = JSON.parse(result.stdout);
    expect(answer.sync.operation_id).toMatch(/^op_/);
    expect(emu.store.products.get(product.id)).toMatchObject({
      title: 'Blue mug',
      tags: ['kitchen', 'blue'],
      vat_rate: 7,
    });
  });

  it('a stale --expected-updated-at is refused (412): says the product changed since, and when', async () => {
    const product = productWith(() => true);
    const seen = product.updated_at;
    expect((await svc(['products', 'update', product.id, '--set', 'title=Someone else'])).code).toBe(0);
    const changedAt = emu.store.products.get(product.id)?.updated_at as string;
    const result = await svc([
      'products',
      'update',
      product.id,
      '--set',
      'title=Mine',
      '--expected-updated-at',
      seen,
    ]);
    expect(result.code, result.stderr).toBe(1);
    expect(result.stderr).toContain(`changed since ${seen}`);
    expect(result.stderr).toContain(`updated at ${changedAt}`);
    expect(emu.store.products.get(product.id)?.title).toBe('Someone else');
  });

  it('refuses bad --set fields before sending (exit 2)', async () => {
    const id = productWith(() => true).id;
    const unknown = await svc(['products', 'update', id, '--set', 'colour=red']);
    expect(unknown.code, unknown.stderr).toBe(2);
    expect(unknown.stderr).toContain('unknown product field');
    const variants = await svc(['products', 'update', id, '--set', 'variants=x']);
    expect(variants.code, variants.stderr).toBe(2);
    expect(writes()).toHaveLength(0);
  });

  it('delete refuses without a terminal unless --yes (exit 2), then deletes with --yes', async () => {
    const id = productWith(() => true).id;
    const refused = await svc(['products', 'delete', id]);
    expect(refused.code, refused.stderr).toBe(2);
    expect(refused.stderr).toContain('--yes');
    expect(emu.store.products.has(id)).toBe(true);
    const deleted = await svc(['products', 'delete', id, '--yes', '--json']);
    expect(deleted.code, deleted.stderr).toBe(0);
    expect(JSON.parse(deleted.stdout)).toEqual({ id, object: 'product', deleted: true });
    expect(emu.store.products.has(id)).toBe(false);
  });
});

describe('images and files', () => {
  it('round trip: upload a file, add it and a URL, reorder, remove', async () => {
    const product = productWith((p) => p.images.length === 1);
    const [original] = product.images;

    const upload = await svc(['files', 'upload', fixture('pixel.jpg'), '--json']);
    expect(upload.code, upload.stderr).toBe(0);
    const file = JSON.parse(upload.stdout);
    expect(file.url).toMatch(/^https:\/\/.+\.jpg$/);

    const added = await svc([
      'products',
      'images',
      'add',
      product.id,
      fixture('pixel.png'),
      'https://example.com/side.webp',
      '--json',
    ]);
    expect(added.code, added.stderr).toBe(0);
    const images = JSON.parse(added.stdout);
    expect(images).toHaveLength(3);
    expect(images[0]).toMatchObject({ id: original.id, url: original.url, position: 0 });
    expect(images[1].url).toMatch(/\/files\/file_\w+\.png$/);
    expect(emu.requests({ route: 'POST /files' })).toHaveLength(2);

    const last = images[2].id;
    const reordered = await svc(['products', 'images', 'reorder', product.id, last, '--json']);
    expect(reordered.code, reordered.stderr).toBe(0);
    expect(JSON.parse(reordered.stdout).map((i: { id: string }) => i.id)).toEqual([
      last,
      original.id,
      images[1].id,
    ]);

    const removed = await svc(['products', 'images', 'remove', product.id, original.id, '--json']);
    expect(removed.code, removed.stderr).toBe(0);
    expect(emu.store.products.get(product.id)?.images.map((i) => i.id)).toEqual([last, images[1].id]);

    const listed = await svc(['products', 'images', 'list', product.id, '-o', 'csv']);
    expect(listed.stdout.trim().split('\n')[0]).toBe('position,id,url,alt');
    expect(listed.stdout).toContain(last);
  });

  it('refuses a 21st image before uploading or changing anything', async () => {
    const product = productWith((p) => p.images.length === 1);
    const urls = Array.from({ length: 18 }, (_, i) => `https://example.com/${i}.jpg`);
    expect((await svc(['products', 'images', 'add', product.id, ...urls])).code).toBe(0);
    const writesBefore = writes().length;
    const result = await svc([
      'products',
      'images',
      'add',
      product.id,
      fixture('pixel.png'),
      'https://example.com/x.jpg',
    ]);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain('would make 21');
    expect(writes()).toHaveLength(writesBefore);
    expect(emu.store.products.get(product.id)?.images).toHaveLength(19);
  });

  it('refuses a file over 10 MB or one that is not an image, sending nothing (exit 2)', async () => {
    const big = join(scratch, 'big.png');
    const bytes = Buffer.alloc(10 * 1024 * 1024 + 1);
    readFileSync(fixture('pixel.png')).copy(bytes);
    writeFileSync(big, bytes);
    const tooBig = await svc(['files', 'upload', big]);
    expect(tooBig.code, tooBig.stderr).toBe(2);
    expect(tooBig.stderr).toContain('10.0 MB');
    const notImage = await svc([
      'products',
      'images',
      'add',
      productWith(() => true).id,
      fixture('not-an-image.png'),
    ]);
    expect(notImage.code, notImage.stderr).toBe(2);
    expect(notImage.stderr).toContain('not a JPEG, PNG or WebP image');
    expect(emu.requests()).toHaveLength(0);
  });
});

describe('products upsert', () => {
  const bulkFile = (count: number) => {
    const file = join(scratch, `bulk-${count}.jsonl`);
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
    const report = join(scratch, 'report.csv');
    const result = await svc(['products', 'upsert', bulkFile(250), '--report', report]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain('250 products in 3 requests');
    expect(result.stderr).toContain('250 created');
    expect(emu.requests({ route: 'POST /products/batch' })).toHaveLength(3);
    expect(emu.store.locateSku('BULK-249-M')).toBeDefined();
    const rows = readFileSync(report, 'utf8').trim().split(/\r?\n/);
    expect(rows[0]).toBe('line,key,status,code,message');
    expect(rows).toHaveLength(251);
    expect(rows[1]).toMatch(/^1,BULK-0-S,created,,prod_/);

    const again = await svc(['products', 'upsert', bulkFile(250), '--json']);
    expect(JSON.parse(again.stdout)).toMatchObject({ total: 250, created: 0, updated: 250, requests: 3 });
  });

  it('--dry-run checks and plans without sending', async () => {
    const result = await svc(['products', 'upsert', bulkFile(250), '--dry-run', '--json']);
    expect(result.code, result.stderr).toBe(0);
    // It reads the catalog to judge each product (reads only), and writes nothing.
    expect(JSON.parse(result.stdout)).toMatchObject({
      products: 250,
      variants: 500,
      requests: 3,
      would_send: 250,
      would_fail: 0,
    });
    expect(emu.requests().filter((request) => request.method !== 'GET')).toHaveLength(0);
  });

  it('names the line of malformed JSON and sends nothing (exit 2)', async () => {
    // Stored as .txt so that the linter leaves the broken JSON alone.
    const file = join(scratch, 'malformed.json');
    copyFileSync(fixture('malformed-array.json.txt'), file);
    const result = await svc(['products', 'upsert', file]);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain('malformed.json line 4 column 3: malformed JSON');
    const lines = await svc(['products', 'upsert', fixture('malformed.jsonl')]);
    expect(lines.code, lines.stderr).toBe(2);
    expect(lines.stderr).toContain('line 3: malformed JSON at column 50');
    expect(emu.requests()).toHaveLength(0);
  });

  it('refuses a SKU in two products of the file, naming both lines (exit 2)', async () => {
    const result = await svc(['products', 'upsert', fixture('duplicate-sku.jsonl')]);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain('line 3: SKU DUP-SHARED is also on line 1');
    expect(emu.requests()).toHaveLength(0);
  });

  it('reads the CSV layout: one row per variant grouped by handle, options as columns', async () => {
    const result = await svc(['products', 'upsert', fixture('catalog.csv')]);
    expect(result.code, result.stderr).toBe(0);
    const tee = emu.store.locateSku('CSV-TEE-M-BLUE')?.product;
    expect(tee).toMatchObject({ title: 'CSV tee', brand: 'Acme', tags: ['cotton', 'summer'] });
    expect(tee?.variants.map((v) => v.options)).toContainEqual({ Size: 'M', Color: 'Blue' });
    expect(tee?.images).toHaveLength(1);
    expect(emu.store.locateSku('CSV-MUG')?.variant).toMatchObject({ price: '9.50', quantity: 12 });
  });

  it('exits 3 when an item fails on the service, reporting it with its code', async () => {
    const [a, b] = [...emu.store.products.values()];
    const file = join(scratch, 'split.json');
    const items = [
      { title: 'Fine', variants: [{ sku: 'SPLIT-OK' }] },
      { title: 'Straddles two products', variants: [{ sku: a.variants[0].sku }, { sku: b.variants[0].sku }] },
    ];
    // One product per line: the failing one starts on line 3.
    writeFileSync(file, `[\n${items.map((item) => JSON.stringify(item)).join(',\n')}\n]\n`);
    const report = join(scratch, 'split-report.csv');
    const result = await svc(['products', 'upsert', file, '--report', report]);
    expect(result.code, result.stderr).toBe(3);
    expect(result.stderr).toContain('1 product failed');
    const rows = readFileSync(report, 'utf8').trim().split(/\r?\n/);
    expect(rows.find((row) => row.includes('failed'))).toMatch(/^3,.+,failed,validation_failed,/);
    expect(emu.store.locateSku('SPLIT-OK')).toBeDefined();
  });

  it('refuses a product without variants (it could never be matched) unless --create-unmatched', async () => {
    const file = join(scratch, 'unmatched.jsonl');
    writeFileSync(
      file,
      `${JSON.stringify({ title: 'Gift card' })}\n${JSON.stringify({ title: 'Mug', variants: [{ sku: 'MUG-NEW' }] })}\n`,
    );
    const refused = await svc(['products', 'upsert', file]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('line 1: "Gift card" has no variants');
    expect(refused.stderr).toContain('--create-unmatched');
    expect(emu.requests()).toHaveLength(0);
    const created = await svc(['products', 'upsert', file, '--create-unmatched', '--json']);
    expect(created.code, created.stderr).toBe(0);
    expect(JSON.parse(created.stdout)).toMatchObject({ total: 2, created: 2 });
    expect([...emu.store.products.values()].filter((p) => p.title === 'Gift card')).toHaveLength(1);
  });

  it('names a product by a title of a megabyte in a line, not a megabyte of stderr', async () => {
    const file = join(scratch, 'huge-title.jsonl');
    writeFileSync(file, `${JSON.stringify({ title: 'x'.repeat(1_000_000) })}\n`);
    const refused = await svc(['products', 'upsert', file]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/line 1: "x+…" has no variants/);
    expect(refused.stderr.length).toBeLessThan(2000);
    expect(emu.requests()).toHaveLength(0);
  });

  it('after a lost answer, reads back what a product without variants created before sending again', async () => {
    const file = join(scratch, 'unmatched-lost.jsonl');
    writeFileSync(
      file,
      `${JSON.stringify({ title: 'Gift card' })}\n${JSON.stringify({ title: 'Mug', variants: [{ sku: 'MUG-LOST' }] })}\n`,
    );
    emu.faults.inject({ method: 'POST', path: '/products/batch', kind: 'drop_after' });
    const result = await svc(['products', 'upsert', file, '--create-unmatched', '--json']);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ total: 2, failed: 0 });
    expect([...emu.store.products.values()].filter((p) => p.title === 'Gift card')).toHaveLength(1);
    expect(emu.store.locateSku('MUG-LOST')).toBeDefined();
    const order = emu.requests().map((r) => `${r.method} ${r.path}`);
    expect(order).toEqual(['POST /products/batch', 'GET /products', 'POST /products/batch']);
  });

  it('with a test key the outcomes are simulated and nothing changes', async () => {
    const result = await svc(['products', 'upsert', fixture('catalog.csv'), '--json'], 'test');
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ total: 2, simulated: 2 });
    expect(emu.store.locateSku('CSV-MUG')).toBeUndefined();
  });
});
