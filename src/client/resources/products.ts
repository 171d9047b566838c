/** The catalog: products with their variants, images and listing summaries; their writes. */

import { ENDPOINTS } from '../../contract/endpoints.js';
import type { BatchResult } from '../../contract/schemas/batch.js';
import type { Deleted } from '../../contract/schemas/common.js';
import type { Product, ProductInput, ProductUpdate } from '../../contract/schemas/product.js';
import type { ApiClient, ListOptions } from '../client.js';
import type { PagedList } from '../paginate.js';

/** Filters of the product list. */
export interface ProductFilters {
  updated_after?: string;
}

/** The products, paged (updated_at descending); `options` hears of each page and can stop the crawl. */
export function listProducts(
  client: ApiClient,
  filters: ProductFilters,
  limit: number | 'all',
  options: Pick<ListOptions, 'onPage' | 'signal'> = {},
): PagedList<Product> {
  return client.call(ENDPOINTS.listProducts, { query: filters, limit, ...options });
}

/** One product. */
export function getProduct(client: ApiClient, id: string): Promise<Product> {
  return client.call(ENDPOINTS.getProduct, { id });
}

/** Creates a product. A repeat after an ambiguous failure could create a twin, so it is not repeated blindly. */
export function createProduct(client: ApiClient, input: ProductInput): Promise<Product> {
  return client.call(ENDPOINTS.createProduct, { body: input });
}

/** Updates a product: the answer carries `sync`; its Idempotency-Key makes a repeat safe. */
export function updateProduct(client: ApiClient, id: string, body: ProductUpdate): Promise<Product> {
  return client.call(ENDPOINTS.updateProduct, { id, body });
}

/** Deletes a product. Not repeated blindly: a repeat of an applied delete would answer 404. */
export function deleteProduct(client: ApiClient, id: string): Promise<Deleted> {
  return client.call(ENDPOINTS.deleteProduct, { id });
}

/**
 * Creates or updates up to 100 products. Items are matched by variant SKU, so a repeat
 * updates what a lost first attempt created: safe when every item has a SKU.
 */
export function upsertProducts(
  client: ApiClient,
  items: ProductInput[],
  signal?: AbortSignal,
): Promise<BatchResult> {
  const repeatable = items.every((item) => (item.variants?.length ?? 0) > 0);
  return client.call(ENDPOINTS.batchProducts, { body: { items }, repeatable, signal });
}
