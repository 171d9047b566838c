/**
 * Titles for a listings table: a listing's own title override, else its product's title. The
 * products of the listings without an override are read once each (not one read per listing).
 */
import type { Listing } from '../../contract/schemas/listing.js';
import type { ListingReads } from './reads.js';

/** The titles of the products of listings that have no title of their own, by product id. */
export async function productTitles(
  reads: ListingReads,
  listings: readonly Listing[],
): Promise<Map<string, string>> {
  const untitled = listings.filter((listing) => !listing.overrides?.title).map((l) => l.product_id);
  const products = await reads.products(untitled);
  return new Map([...products].map(([id, product]) => [id, product.title]));
}
