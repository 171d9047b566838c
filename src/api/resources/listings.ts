/** Listings: a product published on one channel account. */
import type { ApiClient } from '../client.js';
import { Listing } from '../schemas/listing.js';
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
export function listListings(client: ApiClient, filters: ListingFilters, limit: number | 'all'): AsyncGenerator<Listing> {
  return client.list('/listings', { ...filters }, Listing, { limit });
}

/** GET /listings/{id}. */
export async function getListing(client: ApiClient, id: string): Promise<Listing> {
  return (await client.request({ method: 'GET', path: itemPath('/listings', id) }, Listing)).body;
}
