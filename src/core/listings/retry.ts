/**
 * `listings retry --error-code` (and `listings update --error-code`): collect every failing
 * listing with that issue first (so a listing that changes during the run is neither skipped
 * nor resynced twice), then resync each with PATCH (`{}`, or the update) under its own
 * Idempotency-Key, paced by the client; listings held back (their cause unchanged) are not sent.
 */
import type { ApiClient } from '../../client/client.js';
import { byUpdatedAt, MergedList } from '../../client/merged-list.js';
import { type ListingFilters, listListings, updateListing } from '../../client/resources/listings.js';
import type { Listing, ListingUpdate } from '../../contract/schemas/listing.js';
import type { Operation } from '../../contract/schemas/operation.js';
import { ApiError } from '../../errors.js';
import { plural } from '../../words.js';
import { type BulkRunOptions, runItems } from '../bulk.js';
import type { RunRecord } from '../bulk-run.js';
import type { FollowFailure } from '../operations/follow.js';
import type { ItemOutcome, Verdict } from '../outcomes.js';

/** Which failing listings to retry. */
export interface RetrySelection {
  errorCode: string;
  /** Channel kinds: each crawled, the lists merged (the service takes one kind a request). */
  channels?: readonly string[];
  channelAccountId?: string;
}

/** Every listing in `error` carrying the issue code, crawled to the end (100 a page) before any write. */
export async function collectFailing(
  client: ApiClient,
  selection: RetrySelection,
  signal?: AbortSignal,
): Promise<Listing[]> {
  const filters: ListingFilters = {
    status: 'error',
    error_code: selection.errorCode,
    channel_account_id: selection.channelAccountId,
  };
  const crawls = (selection.channels ?? [undefined]).map((channel) =>
    listListings(client, { ...filters, channel }, 'all', signal),
  );
  const listings = crawls.length === 1 ? crawls[0] : new MergedList(crawls, byUpdatedAt, 'all');
  const byId = new Map<string, Listing>();
  for await (const listing of listings) if (!byId.has(listing.id)) byId.set(listing.id, listing);
  return [...byId.values()];
}

/** How the resyncs are sent and where their outcomes go. */
interface ResyncOptions extends BulkRunOptions {
  simulated: boolean;
  send: (listing: Listing) => Promise<Listing>;
  /** True for a listing not to send (settled apart, before the run). */
  hold?: (listing: Listing) => boolean;
  /** Every listing's outcome as it is known: answered, refused, or not sent because the run stopped. */
  settle: (outcome: ItemOutcome) => void;
  /** The service's answer to a resync it took. */
  onAnswer?: (answer: Listing) => void;
}

// A listing the service refuses on its own (gone, delisted meanwhile) fails alone; anything else stops the run.
const ITEM_LEVEL_REFUSALS = new Set([400, 404, 409, 412, 422]);

/** Resyncs each listing once (but those held); stops on quota or signal (RunStopped) after in-flight ones land. */
async function resyncAll(listings: readonly Listing[], options: ResyncOptions): Promise<void> {
  const { simulated, send, settle, onAnswer, hold, ...run } = options;
  await runItems(
    listings,
    async (listing, index) => {
      try {
        const answer = await send(listing);
        onAnswer?.(answer);
        const status = simulated ? 'simulated' : 'updated';
        return { index, key: listing.id, status, message: answer.operation_id ?? undefined };
      } catch (error) {
        if (!(error instanceof ApiError) || !ITEM_LEVEL_REFUSALS.has(error.status)) throw error;
        return { index, key: listing.id, status: 'failed', code: error.code, message: error.message };
      }
    },
    // Listings come from no file: their rows have no line.
    { ...run, settle, skip: hold, describe: (listing) => ({ key: listing.id }) },
  );
}

/**
 * Resyncs every listing not held through `client` (each PATCH carrying `body`: `{}` resyncs it
 * as it is), the held ones settled apart with their verdicts, each outcome recorded in `run`:
 * the run `listings retry`, `listings update --error-code` and the library's `listings.retry`
 * share. `onAnswer` hears each answer taken (its operation is followed with --wait).
 */
export async function sendResyncs(
  client: ApiClient,
  listings: readonly Listing[],
  resync: { held: ReadonlyMap<string, Verdict>; body: ListingUpdate; onAnswer?: (answer: Listing) => void },
  run: RunRecord,
): Promise<void> {
  const held = listings.flatMap((listing, index) => {
    const verdict = resync.held.get(listing.id);
    return verdict ? [{ index, key: listing.id, ...verdict, unsent: true }] : [];
  });
  if (held.length > 0) run.record(held);
  await resyncAll(listings, {
    ...run.runOptions,
    simulated: !client.live,
    hold: (listing) => resync.held.has(listing.id),
    send: (listing) => {
      run.countRequest();
      return updateListing(client, listing.id, resync.body);
    },
    onAnswer: resync.onAnswer,
    settle: (outcome) => run.record([outcome]),
  });
}

/** A listing's fate after its resync operation: listed again, or still failing with an issue. */
export interface RetryVerdict {
  listing_id: string;
  operation_id: string;
  /** `simulated`: a test key's resync, which changed nothing. */
  status: 'listed' | 'failing' | 'pending' | 'simulated';
  code?: string | null;
  message?: string | null;
}

/** Reads each listing's verdict off its operation's result. */
export function verdicts(
  operationsByListing: ReadonlyMap<string, string>,
  operations: readonly Operation[],
): RetryVerdict[] {
  const byId = new Map(operations.map((operation) => [operation.id, operation]));
  return [...operationsByListing].map(([listingId, operationId]) => {
    const operation = byId.get(operationId);
    const result =
      operation?.results?.find((candidate) => candidate.listing_id === listingId) ?? operation?.results?.[0];
    if (!operation || !result || result.status === 'pending' || result.status === 'processing') {
      return {
        listing_id: listingId,
        operation_id: operationId,
        status: 'pending',
        code: result?.error?.code,
        message: result?.error?.message,
      };
    }
    if (result.status === 'failed') {
      return {
        listing_id: listingId,
        operation_id: operationId,
        status: 'failing',
        code: result.error?.code,
        message: result.error?.message,
      };
    }
    return {
      listing_id: listingId,
      operation_id: operationId,
      status: result.status === 'simulated' ? 'simulated' : 'listed',
    };
  });
}

/** Which operation each answered resync started, and the earliest time any of them can have been created. */
export interface ResyncOperations {
  byListing: Map<string, string>;
  createdAfter?: string;
}

/** The operations of the resyncs that were answered, by listing (in the order of `matches`). */
export function resyncOperations(
  matches: readonly Listing[],
  answers: ReadonlyMap<string, Listing>,
): ResyncOperations {
  const byListing = new Map<string, string>();
  let createdAfter: string | undefined;
  for (const match of matches) {
    const answer = answers.get(match.id);
    if (!answer?.operation_id) continue;
    byListing.set(answer.id, answer.operation_id);
    if (createdAfter === undefined || answer.updated_at < createdAfter) createdAfter = answer.updated_at;
  }
  return { byListing, createdAfter };
}

/**
 * Each verdict as its listing's final outcome: `listed`, `failed` with the channel's code,
 * `pending` (with its operation), or `simulated`; `indexOf` gives each listing's place in the input.
 */
export function verdictOutcomes(
  all: readonly RetryVerdict[],
  indexOf: ReadonlyMap<string, number>,
): ItemOutcome[] {
  return all.flatMap((verdict): ItemOutcome[] => {
    const index = indexOf.get(verdict.listing_id);
    if (index === undefined) return [];
    const key = verdict.listing_id;
    if (verdict.status === 'failing')
      return [{ index, key, status: 'failed', code: verdict.code, message: verdict.message }];
    return [{ index, key, status: verdict.status, message: verdict.operation_id }];
  });
}

/** Verdicts counted: listed again, still failing, still pending, simulated; and the unresolved ones. */
export function tallyVerdicts(all: readonly RetryVerdict[]) {
  const unresolved = all.filter((verdict) => verdict.status === 'failing' || verdict.status === 'pending');
  const failing = unresolved.filter((verdict) => verdict.status === 'failing').length;
  return {
    listed: all.filter((verdict) => verdict.status === 'listed').length,
    simulated: all.filter((verdict) => verdict.status === 'simulated').length,
    failing,
    pending: unresolved.length - failing,
    unresolved,
  };
}

/** The retry's failure: listings refused at the resync, or whose channel still refuses them. */
export function stillFailing(count: number): FollowFailure | undefined {
  if (count === 0) return undefined;
  return {
    message: `${count} ${plural(count, 'listing')} still ${plural(count, 'fails', 'fail')}; the list above names each issue`,
  };
}
