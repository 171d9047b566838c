/** Listings: a product published on one channel account. */

import { BatchResult } from '../../contract/schemas/batch.js';
import { Listing, type ListingInput, type ListingUpdate } from '../../contract/schemas/listing.js';
import type { ApiClient } from '../client.js';
import type { PagedList } from '../paginate.js';
import { itemPath } from './paths.js';

/** Filters of GET /listings, named as the API names them. */
export interface ListingFilters {
  product_id?: string;
  channel_account_id?: string;
  channel?: string;
  status?: string;
  error_code?: string;
  updated_after?: string;
}

/** GET /listings, paged (updated_at descending). */
export function listListings(
  client: ApiClient,
  filters: ListingFilters,
  limit: number | 'all',
  signal?: AbortSignal,
): PagedList<Listing> {
  return client.list('/listings', { ...filters }, Listing, { limit, signal });
}

/** GET /listings/{id}. */
export async function getListing(client: ApiClient, id: string): Promise<Listing> {
  return (await client.request({ method: 'GET', path: itemPath('/listings', id) }, Listing)).body;
}

/**
 * POST /listings. Not repeatable: the live service does not promise to deduplicate it, so an
 * ambiguous failure surfaces as AmbiguousWriteError and the caller looks for the listing first.
 */
export async function createListing(
  client: ApiClient,
  input: ListingInput,
  idempotencyKey?: string,
): Promise<Listing> {
  const spec = { method: 'POST' as const, path: '/listings', body: input, repeatable: false, idempotencyKey };
  return (await client.request(spec, Listing)).body;
}

/** POST /listings/batch with 1 to 100 items; per-item outcomes. Not repeatable (as createListing). */
export async function createListingBatch(
  client: ApiClient,
  items: ListingInput[],
  idempotencyKey?: string,
): Promise<BatchResult> {
  const spec = {
    method: 'POST' as const,
    path: '/listings/batch',
    body: { items },
    repeatable: false,
    idempotencyKey,
  };
  return (await client.request(spec, BatchResult)).body;
}

/** PATCH /listings/{id}; `{}` is a plain resync. Repeatable: it carries its Idempotency-Key. */
export async function updateListing(
  client: ApiClient,
  id: string,
  body: ListingUpdate,
  signal?: AbortSignal,
): Promise<Listing> {
  const spec = { method: 'PATCH' as const, path: itemPath('/listings', id), body, repeatable: true, signal };
  return (await client.request(spec, Listing)).body;
}

/** DELETE /listings/{id}: `ongoing` until its operation delists it. Not repeatable; read back after an ambiguous failure. */
export async function deleteListing(client: ApiClient, id: string): Promise<Listing> {
  return (
    await client.request({ method: 'DELETE', path: itemPath('/listings', id), repeatable: false }, Listing)
  ).body;
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
