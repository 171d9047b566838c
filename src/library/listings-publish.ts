/**
 * `client.listings.publishAll(listings | path, options)`: the run `svc listings publish --file`
 * makes (src/core/listings): the same check, the accounts named checked before anything is
 * sent, chunks of 100, a listing already published skipped rather than published twice, and
 * the same record of outcomes. Loaded on the first call.
 */
import { type BulkProgress, recordRun } from '../core/bulk-run.js';
import type { BulkResult } from '../core/bulk-stopped.js';
import { requireAccounts } from '../core/listings/discovery.js';
import { sendPublish } from '../core/listings/publish.js';
import { checkPublishFile } from '../core/listings/publish-file.js';
import { withFileOf, withoutLines } from './bulk-input.js';
import type { Connected } from './connect.js';

/** How a publish run goes; everything is optional. */
export interface PublishAllOptions {
  /** A file's text: `utf-8` (default) or `latin1` (Windows-1252). */
  encoding?: 'utf-8' | 'latin1';
  /** Told after each answered request. */
  onProgress?: (progress: BulkProgress) => void;
  /** Stops the run: no request starts after it aborts; the result so far is thrown as BulkStopped. */
  signal?: AbortSignal;
}

/** Publishes every listing of `input` as `svc listings publish --file` does. */
export async function publishAll(
  { client }: Connected,
  input: readonly object[] | string,
  options: PublishAllOptions,
): Promise<BulkResult> {
  const file = await withFileOf(
    input,
    'listings.json',
    (items) => JSON.stringify(items),
    (path) =>
      checkPublishFile(path, typeof input === 'string' ? input : 'the listings given', options.encoding),
  );
  await requireAccounts(client, file.accountIds);
  const result = await recordRun({
    total: file.items.length,
    items: () => file.items,
    signal: options.signal,
    onProgress: options.onProgress,
    send: (run) => sendPublish(client, file.items, run),
  });
  return typeof input === 'string' ? result : withoutLines(result);
}
