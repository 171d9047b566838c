/** Listings: a product published on one channel account. */

import { ENDPOINTS } from '../../contract/endpoints.js';
import type { BatchResult } from '../../contract/schemas/batch.js';
import type { Listing, ListingInput, ListingUpdate } from '../../contract/schemas/listing.js';
import type { ApiClient } from '../client.js';
import type { PagedList } from '../paginate.js';

/** Filters of the listing list, named as the API names them. */
export interface ListingFilters {
  product_id?: string;
  channel_account_id?: string;
  channel?: string;
  status?: string;
  error_code?: string;
  updated_after?: string;
}

/** The listings, paged (updated_at descending). */
export function listListings(
  client: ApiClient,
  filters: ListingFilters,
  limit: number | 'all',
  signal?: AbortSignal,
): PagedList<Listing> {
  return client.call(ENDPOINTS.listListings, { query: filters, limit, signal });
}

/** One listing. */
export function getListing(client: ApiClient, id: string): Promise<Listing> {
  return client.call(ENDPOINTS.getListing, { id });
}

/**
 * Publishes a product on an account. Not repeatable: the live service does not promise to
 * deduplicate it, so an ambiguous failure surfaces as AmbiguousWriteError and the caller
 * looks for the listing first.
 */
export function createListing(
  client: ApiClient,
  input: ListingInput,
  idempotencyKey?: string,
): Promise<Listing> {
  return client.call(ENDPOINTS.createListing, { body: input, idempotencyKey });
}

/** Publishes 1 to 100 listings; per-item outcomes. Not repeatable (as createListing). */
export function createListingBatch(
  client: ApiClient,
  items: ListingInput[],
  idempotencyKey?: string,
): Promise<BatchResult> {
  return client.call(ENDPOINTS.batchListings, { body: { items }, idempotencyKey });
}

/** Changes a listing; `{}` is a plain resync. Repeatable: it carries its Idempotency-Key. */
export function updateListing(
  client: ApiClient,
  id: string,
  body: ListingUpdate,
  signal?: AbortSignal,
): Promise<Listing> {
  return client.call(ENDPOINTS.updateListing, { id, body, signal });
}

/** Delists: `ongoing` until its operation delists it. Not repeatable; read back after an ambiguous failure. */
export function deleteListing(client: ApiClient, id: string): Promise<Listing> {
  return client.call(ENDPOINTS.deleteListing, { id });
}

/** The listing of a product on an account that is not delisted, if any (the one a publish would clash with). */
export async function findActiveListing(
  client: ApiClient,
  productId: string,
  channelAccountId: string,
): Promise<Listing | undefined> {
  for await (const listing of listListings(
    client,
    { product_id: productId, channel_account_id: channelAccountId },
    'all',
  )) {
    if (listing.status !== 'delisted') return listing;
  }
  return undefined;
}
