/** `inventory push --wait`: the channels' refusals of a push, per SKU, read off its followed operations. */
import { capped, plural } from '../../words.js';
import { FAILURES_SHOWN, type ItemOutcome, outcomeLine } from '../bulk.js';
import { type Followed, type FollowFailure, failedResults } from '../operations/follow.js';
import { type CheckedFile, inventoryBatches } from './check.js';

/** One channel refusal as a report row: the SKU's line in the file, the channel's code and words. */
export type ChannelRefusal = ItemOutcome & { channel_account_id: string | null; listing_id: string | null };

/**
 * Every channel refusal of the followed operations as a row of the report (status `failed`),
 * with the line of its SKU in the file; the file is read again for those lines rather than
 * holding a map of every SKU.
 */
export async function channelRefusals(file: CheckedFile, followed: Followed): Promise<ChannelRefusal[]> {
  const failures = failedResults(followed.operations);
  const wanted = new Set(failures.map((failure) => failure.sku).filter((sku): sku is string => Boolean(sku)));
  const lines = new Map<string, number>();
  if (wanted.size > 0) {
    for await (const batch of inventoryBatches(file, 1000)) {
      for (const row of batch) if (wanted.has(row.sku)) lines.set(row.sku, row.line);
      if (lines.size === wanted.size) break;
    }
  }
  return failures
    .map((failure) => {
      const where = [failure.channel_account_id, failure.listing_id].filter(Boolean).join(' ');
      return {
        line: lines.get(failure.sku ?? '') ?? 0,
        key: failure.sku ?? '',
        status: 'failed',
        code: failure.error?.code ?? 'channel_failed',
        message: `${where ? `${where}: ` : ''}${failure.error?.message ?? 'the channel refused the update'}`,
        channel_account_id: failure.channel_account_id ?? null,
        listing_id: failure.listing_id ?? null,
      };
    })
    .sort((a, b) => a.line - b.line);
}

/** The refusals as the push's failure: how many, where every one is listed, and the first ones. */
export function refusalsFailure(
  refusals: readonly ChannelRefusal[],
  report?: string,
): FollowFailure | undefined {
  if (refusals.length === 0) return undefined;
  const where = report ? `; every one is in ${report}` : '; --report OUT.csv or --json lists every one';
  // A SKU on several channels can be refused by each: count both, so the total never reads as more SKUs than pushed.
  const skus = new Set(refusals.map((refusal) => refusal.key)).size;
  const what = `${refusals.length} ${plural(refusals.length, 'update')} of ${skus} ${plural(skus, 'SKU')}`;
  return {
    message: `the channels refused ${what}${where}`,
    details: capped(refusals.map(outcomeLine), FAILURES_SHOWN),
  };
}
