/**
 * `client.inventory.push(rows | path, options)`: the push `svc inventory push` runs (src/core/
 * inventory), with the same whole-file check, journal, resume, changed-only plan, zeroing guard
 * and quota count, and the same record of outcomes. Loaded on the first push, not on import.
 */
import { CheckedCopy } from '../config/journal-files.js';
import { type BulkProgress, type BulkResult, recordRun } from '../core/bulk-run.js';
import { type CheckedFile, checkInventoryFile } from '../core/inventory/check.js';
import { InventoryPush } from '../core/inventory/push.js';
import { describeZeroing } from '../core/inventory/zeroing.js';
import type { Notes } from '../core/notes.js';
import { UsageError } from '../errors.js';
import { csvText, withFileOf, withoutLines } from './bulk-input.js';
import type { Connected } from './connect.js';

/** One row of a push: a SKU and what to set (a value left out stays as it is). */
export interface StockRow {
  sku: string;
  quantity?: number;
  /** A decimal, as a number or as text ("28.37"). */
  price?: number | string;
}

/** How a push goes; everything is optional. */
export interface PushOptions {
  /** Read the store first (no write quota) and send only the rows that differ. */
  changedOnly?: boolean;
  /** SKUs per request, 1 to 100 (default 100; a resume keeps the interrupted push's). */
  batchSize?: number;
  /** Continue an interrupted push of the same rows or file to the same store: send only unconfirmed batches. */
  resume?: boolean;
  /** Go on when the push would set more than 20% of its SKUs to quantity 0 (refused otherwise). */
  allowZeroing?: boolean;
  /** A file's columns renamed: `sku=Item,quantity=Qty`. */
  map?: string;
  /** A file's columns left unread: `Note,Qty2`. */
  ignore?: string;
  /** A single "," in a file's price is its decimal separator. */
  decimalComma?: boolean;
  /** A file's text: `utf-8` (default) or `latin1` (Windows-1252). */
  encoding?: 'utf-8' | 'latin1';
  /** Told after each answered request. */
  onProgress?: (progress: BulkProgress) => void;
  /** What the push says while it works (the journal it resumes, the rows it reads), as `svc` says it on stderr. */
  onNote?: (line: string, level: 'info' | 'warn') => void;
  /** Stops the push: no batch starts after it aborts; the result so far is thrown as BulkStopped. */
  signal?: AbortSignal;
}

/** Pushes `input` (rows, or the path of a CSV file) as `svc inventory push` does. */
export async function pushInventory(
  connected: Connected,
  input: readonly StockRow[] | string,
  options: PushOptions,
): Promise<BulkResult> {
  const { client, credentials, configDir } = connected;
  const notes: Notes = {
    info: (line) => options.onNote?.(line, 'info'),
    warn: (line) => options.onNote?.(line, 'warn'),
  };
  const copy = CheckedCopy.create(configDir);
  let file: CheckedFile;
  try {
    file = await withFileOf(input, 'rows.csv', rowsCsv, (path) =>
      checkInventoryFile(path, options, copy.write),
    );
  } catch (error) {
    copy.discard();
    throw error;
  }
  copy.close();
  const { signal } = options;
  const push = await InventoryPush.open(
    file,
    copy,
    { batchSize: options.batchSize, changedOnly: options.changedOnly, resume: options.resume },
    {
      client: async () => client,
      credentials: async () => credentials,
      configDir,
      now: Date.now,
      signal,
      notes,
      track: async () => ({ update: () => undefined, stop: () => undefined }),
      // The library takes no backup option: nothing calls this.
      saveBackup: async () => undefined,
    },
  );
  try {
    if (push.zeroing) {
      const what = describeZeroing(push.zeroing);
      if (!options.allowZeroing)
        throw new UsageError(
          `${what}; nothing was sent. A broken export often looks like this; if it is meant, push with allowZeroing: true`,
        );
      notes.warn(`${what}; going on (allowZeroing)`);
      push.acceptZeroing();
    }
    const result = await recordRun({
      total: push.total,
      items: () => push.items(),
      signal,
      onProgress: options.onProgress,
      send: (run) => push.send(client, run),
    });
    return typeof input === 'string' ? result : withoutLines(result);
  } finally {
    push.release();
  }
}

/** The rows as the CSV the push checks: `sku,quantity,price`, an absent value an empty cell. */
function rowsCsv(rows: readonly StockRow[]): string {
  return csvText(
    ['sku', 'quantity', 'price'],
    rows.map((row) => [row.sku, row.quantity, row.price]),
  );
}
