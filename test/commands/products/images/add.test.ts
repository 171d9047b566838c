/** `svc products images add` (with reorder and remove in its round trip). */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../helpers/temp-dir.js';
import { emu, fixture, productWith, svc, useProductsEmulator, writes } from '../products-emulator.js';

useProductsEmulator();

const scratch = tempDir('svc-products-');

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
