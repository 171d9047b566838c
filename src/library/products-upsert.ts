/**
 * `client.products.upsertAll(products | path, options)`: the run `svc products upsert` makes
 * (src/core/products), with the same whole-input check, chunks of 100, read-back after a lost
 * answer and record of outcomes. Loaded on the first call, not on import.
 */
import { type BulkProgress, recordRun } from '../core/bulk-run.js';
import type { BulkResult } from '../core/bulk-stopped.js';
import { sendUpsert } from '../core/products/upsert.js';
import { checkUpsertFile, formatOf } from '../core/products/upsert-file.js';
import { UsageError } from '../errors.js';
import { withFileOf, withoutLines } from './bulk-input.js';
import type { Connected } from './connect.js';

/** How an upsert goes; everything is optional. */
export interface UpsertOptions {
  /** A file's format, when its name does not say it (.json, .jsonl/.ndjson, .csv/.tsv/.txt). */
  format?: 'json' | 'jsonl' | 'csv';
  /** Create products without variants too (no SKU can match them: every run makes another copy). */
  createUnmatched?: boolean;
  /** A file's text: `utf-8` (default) or `latin1` (Windows-1252). */
  encoding?: 'utf-8' | 'latin1';
  /** Told after each answered request. */
  onProgress?: (progress: BulkProgress) => void;
  /** Stops the run: no request starts after it aborts; the result so far is thrown as BulkStopped. */
  signal?: AbortSignal;
}

/** Upserts `input` (products, or the path of a file of them) as `svc products upsert` does. */
export async function upsertAll(
  { client }: Connected,
  input: readonly object[] | string,
  options: UpsertOptions,
): Promise<BulkResult> {
  const format = typeof input === 'string' ? (options.format ?? formatOf(input)) : 'json';
  if (!format)
    throw new UsageError(`cannot tell the format of ${input} from its name; pass format: json, jsonl or csv`);
  const { encoding, createUnmatched } = options;
  const file = await withFileOf(
    input,
    'products.json',
    (items) => JSON.stringify(items),
    (path) =>
      checkUpsertFile(path, format, typeof input === 'string' ? input : 'the products given', {
        encoding,
        createUnmatched,
      }),
  );
  const result = await recordRun({
    total: file.items.length,
    items: () => file.items,
    signal: options.signal,
    onProgress: options.onProgress,
    send: (run) => sendUpsert(client, file.items, run, Date.now),
  });
  return typeof input === 'string' ? result : withoutLines(result);
}
