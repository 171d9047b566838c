/** `inventory push --wait`: the channels' refusals of a push, per SKU, read off its followed operations. */
import { capped, plural } from '../../words.js';
import { FAILURES_SHOWN } from '../bulk.js';
import { type Followed, type FollowFailure, failedResults } from '../operations/follow.js';
import { type ItemOutcome, outcomeLine } from '../outcomes.js';
import { type CheckedFile, inventoryBatches } from './check.js';

/** One channel refusal: the SKU's place and line in the file, the channel's code and words. */
export interface ChannelRefusal {
  /** The SKU's place among the file's rows (absent when the file does not hold the SKU). */
  index?: number;
  line?: number;
  key: string;
  code: string;
  message: string;
  channel_account_id: string | null;
  listing_id: string | null;
}

/**
 * Every channel refusal of the followed operations, with the place and line of its SKU in the
 * file; the file is read again for those rather than holding a map of every SKU.
 */
export async function channelRefusals(file: CheckedFile, followed: Followed): Promise<ChannelRefusal[]> {
  const failures = failedResults(followed.operations);
  const wanted = new Set(failures.map((failure) => failure.sku).filter((sku): sku is string => Boolean(sku)));
  const places = new Map<string, { index: number; line: number }>();
  if (wanted.size > 0) {
    for await (const batch of inventoryBatches(file, 1000)) {
      for (const row of batch)
        if (wanted.has(row.sku)) places.set(row.sku, { index: row.index, line: row.line });
      if (places.size === wanted.size) break;
    }
  }
  return failures
    .map((failure) => {
      const where = [failure.channel_account_id, failure.listing_id].filter(Boolean).join(' ');
      return {
        ...places.get(failure.sku ?? ''),
        key: failure.sku ?? '',
        code: failure.error?.code ?? 'channel_failed',
        message: `${where ? `${where}: ` : ''}${failure.error?.message ?? 'the channel refused the update'}`,
        channel_account_id: failure.channel_account_id ?? null,
        listing_id: failure.listing_id ?? null,
      };
    })
    .sort((a, b) => (a.index ?? Number.MAX_SAFE_INTEGER) - (b.index ?? Number.MAX_SAFE_INTEGER));
}

/**
 * Each refused SKU's final outcome: failed, with the code of its first refusal and every
 * refusal in the message (a SKU on several channels can be refused by each; it is one row).
 */
export function refusedOutcomes(refusals: readonly ChannelRefusal[]): ItemOutcome[] {
  const bySku = new Map<number, ChannelRefusal[]>();
  for (const refusal of refusals) {
    if (refusal.index === undefined) continue;
    bySku.set(refusal.index, [...(bySku.get(refusal.index) ?? []), refusal]);
  }
  return [...bySku.entries()].map(([index, [first, ...more]]) => ({
    index,
    line: first.line,
    key: first.key,
    status: 'failed',
    code: first.code,
    message:
      more.length === 0
        ? first.message
        : [first, ...more].map((refusal) => `${refusal.code}: ${refusal.message}`).join('; '),
  }));
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
