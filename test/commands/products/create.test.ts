/** `svc products create`. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../helpers/temp-dir.js';
import { emu, fixture, svc, useProductsEmulator } from './products-emulator.js';

useProductsEmulator();

const scratch = tempDir('svc-products-');

describe('svc products create', () => {
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
});
