/** The stock files and batch counts of the `inventory push` suites (push*.test.ts). */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { RunningEmulator } from '../../../src/emulator/index.js';
import { tempDir } from '../../helpers/temp-dir.js';

export const scratch = () => tempDir('svc-resume-');
export const batches = { method: 'POST', path: '/inventory/batch' } as const;
export const sentBatches = (emu: RunningEmulator) => emu.requests({ ...batches, status: 200 }).length;

/** `count` seeded SKUs set to `quantity(i)`, as a CSV with the given header names. */
export function stock(
  emu: RunningEmulator,
  count: number,
  header = 'sku,quantity',
  quantity = (i: number) => i % 89,
) {
  const skus = emu.store.allSkus().slice(0, count);
  expect(skus).toHaveLength(count);
  const path = join(scratch(), 'stock.csv');
  const text = `${header}\n${skus.map((sku, i) => `${sku},${quantity(i)}`).join('\n')}\n`;
  writeFileSync(path, text);
  const matches = () => skus.every((sku, i) => emu.store.inventoryBySku(sku)?.quantity === quantity(i));
  return { path, text, skus, matches };
}
