/** `svc products update`. */
import { describe, expect, it } from 'vitest';
import { emu, productWith, svc, useProductsEmulator, writes } from './products-emulator.js';

useProductsEmulator();

describe('svc products update', () => {
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
});
