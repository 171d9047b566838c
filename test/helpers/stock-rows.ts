/** Stock files for the pacing tests: SKUs of the seeded store set to new quantities, and the check that they landed. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { tempDir } from './temp-dir.js';

export interface StockRow {
  sku: string;
  quantity: number;
}

/**
 * A CSV of `count` seeded SKUs from `offset` on, each set to `base + offset + i` (new to the
 * store), and the rows it holds. Throws when the store has fewer SKUs.
 */
export function quantityFile(
  emu: RunningEmulator,
  offset: number,
  count: number,
  base: number,
): { path: string; rows: StockRow[] } {
  const skus = emu.store.allSkus().slice(offset, offset + count);
  if (skus.length !== count)
    throw new Error(`the store has ${skus.length} SKUs from ${offset}, not ${count}`);
  const rows = skus.map((sku, i) => ({ sku, quantity: base + offset + i }));
  const path = join(tempDir('svc-stock-'), 'stock.csv');
  writeFileSync(path, `sku,quantity\n${rows.map((r) => `${r.sku},${r.quantity}`).join('\n')}\n`);
  return { path, rows };
}

/** The rows whose quantity the store does not hold. */
export function mismatches(emu: RunningEmulator, rows: readonly StockRow[]): StockRow[] {
  return rows.filter((row) => emu.store.inventoryBySku(row.sku)?.quantity !== row.quantity);
}
