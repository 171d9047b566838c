/** Stock rows read from and checked against an emulator's store, for the inventory verbs' tests. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { RunningEmulator } from '../../../src/emulator/index.js';
import { tempDir } from '../../helpers/temp-dir.js';

const scratch = () => tempDir('svc-changes-');

export interface Row {
  sku: string;
  quantity: number;
  price: string;
}

/** The store's values of `count` SKUs, as rows a test can edit. */
export function storeRows(emu: RunningEmulator, count: number): Row[] {
  const skus = emu.store.allSkus().slice(0, count);
  expect(skus).toHaveLength(count);
  return skus.map((sku) => {
    const item = emu.store.inventoryBySku(sku);
    return { sku, quantity: item?.quantity ?? 0, price: item?.price ?? '1.00' };
  });
}

export function writeRows(rows: readonly Row[], name = 'stock.csv'): string {
  const path = join(scratch(), name);
  writeFileSync(
    path,
    `sku,quantity,price\n${rows.map((r) => `${r.sku},${r.quantity},${r.price}`).join('\n')}\n`,
  );
  return path;
}

/** The rows whose SKU the store holds with other values. */
export function mismatches(emu: RunningEmulator, rows: readonly Row[]): Row[] {
  return rows.filter((row) => {
    const item = emu.store.inventoryBySku(row.sku);
    return item?.quantity !== row.quantity || item?.price !== row.price;
  });
}

/** The store's values of every SKU, by SKU. */
export function snapshot(emu: RunningEmulator): Map<string, string> {
  return new Map(
    emu.store.allSkus().map((sku) => {
      const item = emu.store.inventoryBySku(sku);
      return [sku, `${item?.quantity}|${item?.price}`];
    }),
  );
}

/** Changes `count` rows (from `from`) to a quantity they do not have. */
export function bumpQuantities(rows: Row[], from: number, count: number): void {
  for (let i = from; i < from + count; i++) rows[i].quantity += 1;
}
