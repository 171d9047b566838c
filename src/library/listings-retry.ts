/**
 * `client.listings.retry({ errorCode })`: the run `svc listings retry --error-code` makes
 * (src/core/listings): every listing in error with the code collected first, those whose cause
 * looks unchanged held back as `unfixed` (unless `includeUnfixed`), each other one resynced
 * once under its own Idempotency-Key, and the same record of outcomes. Loaded on the first call.
 */
import { type BulkProgress, recordRun } from '../core/bulk-run.js';
import type { BulkResult } from '../core/bulk-stopped.js';
import { checkCauses } from '../core/listings/cause.js';
import { ListingReads } from '../core/listings/reads.js';
import { collectFailing, sendResyncs } from '../core/listings/retry.js';
import type { Verdict } from '../core/outcomes.js';
import type { Connected } from './connect.js';

/** Which failing listings to retry, and how the run goes. */
export interface RetryOptions {
  /** The issue code the listings fail with (`photo_required_for_channel`, …). */
  errorCode: string;
  /** Only listings on these channel kinds (`etsy`, …). */
  channels?: readonly string[];
  /** Only listings on this channel account. */
  channelAccountId?: string;
  /** Send listings whose cause looks unchanged too (by default they end `unfixed`, not sent). */
  includeUnfixed?: boolean;
  /** Told after each answered request. */
  onProgress?: (progress: BulkProgress) => void;
  /** Stops the run: no request starts after it aborts; the result so far is thrown as BulkStopped. */
  signal?: AbortSignal;
}

/** Retries the failing listings as `svc listings retry --error-code` does. */
export async function retryFailing({ client }: Connected, options: RetryOptions): Promise<BulkResult> {
  const { errorCode, signal } = options;
  const matches = await collectFailing(
    client,
    { errorCode, channels: options.channels, channelAccountId: options.channelAccountId },
    signal,
  );
  const held = new Map<string, Verdict>();
  if (!options.includeUnfixed) {
    const checks = await checkCauses(new ListingReads(client, signal), matches, errorCode, signal);
    for (const [id, check] of checks)
      if (check.state === 'unchanged')
        held.set(id, {
          status: 'unfixed',
          code: errorCode,
          message: `not sent: ${check.reason}; includeUnfixed sends it`,
        });
  }
  return recordRun({
    total: matches.length,
    items: () => matches.map((listing) => ({ key: listing.id })),
    signal,
    onProgress: options.onProgress,
    send: (run) => sendResyncs(client, matches, { held, body: {} }, run),
  });
}
