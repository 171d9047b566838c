/** `svc products delete`. */
import { describe, expect, it } from 'vitest';
import { emu, productWith, svc, useProductsEmulator } from './products-emulator.js';

useProductsEmulator();

describe('svc products delete', () => {
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
