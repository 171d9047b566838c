/**
 * Publishing: one listing, or a checked file in chunks of 100 to POST /listings/batch.
 * A publish is not safe to repeat blindly: after an ambiguous failure the listing of that
 * product on that account is looked for first, and `listing_exists` counts as published.
 */
import { randomUUID } from 'node:crypto';
import type { ApiClient } from '../../client/client.js';
import { createListing, createListingBatch, findActiveListing } from '../../client/resources/listings.js';
import { ERROR_CODES } from '../../contract/contract.js';
import type { BatchResult } from '../../contract/schemas/batch.js';
import type { Listing, ListingInput } from '../../contract/schemas/listing.js';
import { AmbiguousWriteError, ApiError } from '../../errors.js';
import { type BulkRunOptions, batchOutcomes, chunksOf, indexed, sendChunks } from '../bulk.js';
import type { RunRecord } from '../bulk-run.js';
import type { ItemOutcome } from '../outcomes.js';
import type { PublishItem } from './publish-file.js';

/** A publish's end: a new listing, or the one that was already there. */
export interface PublishResult {
  listing: Listing;
  outcome: 'created' | 'existing';
}

/** True for the 409 a product already listed on that account gets. */
function isListingExists(error: unknown): error is ApiError {
  return error instanceof ApiError && error.status === 409 && error.code === ERROR_CODES.listingExists;
}

/** Publishes one product on one account, reading back before any repeat. */
export async function publishOne(client: ApiClient, input: ListingInput): Promise<PublishResult> {
  // One key for the logical publish: a service that does deduplicate answers a repeat with the first result.
  const key = randomUUID();
  const existing = () => findActiveListing(client, input.product_id, input.channel_account_id);
  try {
    return { listing: await createListing(client, input, key), outcome: 'created' };
  } catch (error) {
    if (isListingExists(error)) return alreadyThere(await existing(), error);
    if (!(error instanceof AmbiguousWriteError)) throw error;
    const landed = await existing();
    if (landed) return { listing: landed, outcome: 'created' };
    try {
      return { listing: await createListing(client, input, key), outcome: 'created' };
    } catch (again) {
      if (isListingExists(again)) return alreadyThere(await existing(), again);
      throw again;
    }
  }
}

function alreadyThere(listing: Listing | undefined, error: ApiError): PublishResult {
  if (!listing) throw error;
  return { listing, outcome: 'existing' };
}

/** What a file publish needs from outside: how to send and look up, and where outcomes go. */
interface PublishItemsOptions extends BulkRunOptions {
  /** Test keys: the service simulated every write. */
  simulated: boolean;
  send: (inputs: ListingInput[]) => Promise<BatchResult>;
  /** The active listing of a product on an account, to settle an ambiguous batch. */
  lookup: (input: ListingInput) => Promise<Listing | undefined>;
  /** Every item's outcome as it is known: answered, read back, or not sent because the run stopped. */
  settle: (outcomes: ItemOutcome[]) => void;
  chunkSize?: number;
}

/**
 * Sends every chunk; stops on quota or signal (RunStopped) after in-flight ones land. After a
 * lost answer, an item whose listing now exists was published; the rest go again.
 */
async function publishItems(items: readonly PublishItem[], options: PublishItemsOptions): Promise<void> {
  const { simulated, send, lookup, settle, chunkSize, ...run } = options;
  await sendChunks(chunksOf(indexed(items), chunkSize), {
    ...run,
    simulated,
    send: async (chunk) => {
      const byIndex = new Map((await send(chunk.map((item) => item.input))).data.map((e) => [e.index, e]));
      // `created` with the listing id as message; `skipped` when the product is listed there already.
      return {
        outcomes: batchOutcomes(chunk, (_, at) => byIndex.get(at), {
          simulated,
          noun: 'listing',
          alreadyDone: (entry) => entry.error?.code === ERROR_CODES.listingExists,
        }),
      };
    },
    readBack: async (chunk) => {
      const applied = new Map<(typeof chunk)[number], string>();
      for (const item of chunk) {
        const listing = await lookup(item.input);
        if (listing) applied.set(item, listing.id);
      }
      return { applied };
    },
    settle,
  });
}

/**
 * Publishes checked items through `client` in chunks of 100, each outcome recorded in `run`: the run `listings publish --file` and the library's
 * `listings.publishAll` share.
 */
export async function sendPublish(
  client: ApiClient,
  items: readonly PublishItem[],
  run: RunRecord,
): Promise<void> {
  await publishItems(items, {
    ...run.runOptions,
    simulated: !client.live,
    send: (inputs) => {
      run.countRequest();
      return createListingBatch(client, inputs);
    },
    lookup: (input) => findActiveListing(client, input.product_id, input.channel_account_id),
    settle: (outcomes) => run.record(outcomes),
  });
}
