/**
 * What `listings retry` offers to choose from at a terminal (no --error-code): the errors
 * summary, code × channel with counts as `listings errors` folds it, and for each group how many
 * of its listings look fixed, unchanged or unknown to the check a retry makes before sending
 * (./cause.ts). Reads are shared (./reads.ts): each product, schema and category once per run.
 */
import type { Listing } from '../../contract/schemas/listing.js';
import { type CauseReads, type CauseState, checkCauses } from './cause.js';
import { type ErrorGroup, ErrorSummary, errorCodes, NO_CODE, UNKNOWN_CHANNEL } from './error-summary.js';

/** How many listings of a group look fixed, unchanged, or cannot be told. */
export type CauseTally = Record<CauseState, number>;

/** One code on one channel kind, with what the check found of its listings (none for NO_CODE). */
export interface RetryChoice extends ErrorGroup {
  causes?: CauseTally;
}

/**
 * The groups of `listings` (all in error), most listings first, each with its causes checked;
 * `kindOf` names the channel kind of accounts whose listings do not say it.
 */
export async function retryChoices(
  listings: readonly Listing[],
  reads: CauseReads,
  kindOf: ReadonlyMap<string, string> = new Map(),
  signal?: AbortSignal,
): Promise<RetryChoice[]> {
  const summary = new ErrorSummary();
  for (const listing of listings) summary.add(listing);
  // The kind of each account as the summary folds it: its listings' word first, then kindOf.
  const said = new Map<string, string>();
  for (const listing of listings) if (listing.channel) said.set(listing.channel_account_id, listing.channel);
  const kind = (listing: Listing) =>
    said.get(listing.channel_account_id) ?? kindOf.get(listing.channel_account_id) ?? UNKNOWN_CHANNEL;
  const choices: RetryChoice[] = [];
  for (const group of summary.groups(false, kindOf)) {
    if (group.error_code === NO_CODE) {
      choices.push(group);
      continue;
    }
    const members = listings.filter(
      (listing) => kind(listing) === group.channel && errorCodes(listing).includes(group.error_code),
    );
    const checks = await checkCauses(reads, members, group.error_code, signal);
    const causes: CauseTally = { fixed: 0, unchanged: 0, unknown: 0 };
    for (const check of checks.values()) causes[check.state]++;
    choices.push({ ...group, causes });
  }
  return choices;
}
