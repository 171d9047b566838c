/** `inventory push --backup OUT.csv`: the store's values before the push, in the CSV push reads. */
import { renameSync, rmSync, writeFileSync } from 'node:fs';
import type { LiveStock } from '../core/inventory/live-stock.js';
import { FileError } from '../errors.js';
import { csvRow } from './delimited.js';

/**
 * Writes `sku,quantity,price` rows to `path` whole or not at all (a temporary file renamed
 * into place), so a stop never leaves half an undo file; an empty value stays an empty cell,
 * which push reads as "leave unchanged".
 */
export function writeStockFile(path: string, rows: readonly LiveStock[]): void {
  // A file, like --report: CRLF, as RFC 4180 says (CSV on stdout ends its lines with LF).
  const lines = [csvRow(['sku', 'quantity', 'price'], '\r\n')];
  for (const { sku, quantity, price } of rows)
    lines.push(csvRow([sku, String(quantity ?? ''), price ?? ''], '\r\n'));
  const temp = `${path}.${process.pid}.tmp`;
  try {
    writeFileSync(temp, lines.join(''));
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    throw new FileError(`cannot write the backup ${path}: ${(error as Error).message}; nothing was sent`);
  }
}
