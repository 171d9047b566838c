/** `inventory push --backup OUT.csv`: the store's values before the push, in the CSV push reads. */
import type { LiveStock } from '../core/inventory/live-stock.js';
import { writeCsvFile } from './csv-file.js';

/**
 * Writes `sku,quantity,price` rows to `path` whole or not at all, so a stop never leaves half
 * an undo file; an empty value stays an empty cell, which push reads as "leave unchanged".
 */
export function writeStockFile(path: string, stock: readonly LiveStock[]): void {
  const rows = stock.map(({ sku, quantity, price }) => [sku, String(quantity ?? ''), price ?? '']);
  writeCsvFile(
    path,
    [['sku', 'quantity', 'price'], ...rows],
    (reason) => `cannot write the backup ${path}: ${reason}; nothing was sent`,
  );
}
