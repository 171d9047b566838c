/** `inventory set`: one SKU's quantity and price, and a SKU the catalog does not hold. */
import { describe, expect, it } from 'vitest';
import { emulatorPerTest, envFor } from '../../helpers/emulator.js';
import { runSvc } from '../../helpers/svc.js';

const start = emulatorPerTest();

describe('inventory set', () => {
  it('sets one SKU and says when it is not in the catalog', async () => {
    const emu = await start();
    const sku = emu.store.allSkus()[3];
    const ok = await runSvc(['inventory', 'set', sku, '--quantity', '42', '--price', '9.99', '--json'], {
      env: envFor(emu),
    });
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({ sku, quantity: 42, price: '9.99' });
    expect(emu.store.inventoryBySku(sku)).toMatchObject({ quantity: 42, price: '9.99' });
    const missing = await runSvc(['inventory', 'set', 'NO SUCH/SKU', '--quantity', '1'], {
      env: envFor(emu),
    });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/NO SUCH\/SKU is not in the catalog/);
    const neither = await runSvc(['inventory', 'set', sku], { env: envFor(emu) });
    expect(neither.code).toBe(2);
  });
});
