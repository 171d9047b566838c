/** The catalog: products with their variants, images and listing summaries; their writes. */

import { BatchResult } from '../../contract/schemas/batch.js';
import { Deleted } from '../../contract/schemas/common.js';
import { Product, type ProductInput, type ProductUpdate } from '../../contract/schemas/product.js';
import type { ApiClient, ListOptions } from '../client.js';
import type { PagedList } from '../paginate.js';
import { itemPath } from './paths.js';

/** Filters of GET /products. */
export interface ProductFilters {
  updated_after?: string;
}

/** GET /products, paged (updated_at descending); `options` hears of each page and can stop the crawl. */
export function listProducts(
  client: ApiClient,
  filters: ProductFilters,
  limit: number | 'all',
  options: Pick<ListOptions, 'onPage' | 'signal'> = {},
): PagedList<Product> {
  return client.list('/products', { ...filters }, Product, { limit, ...options });
}

/** GET /products/{id}. */
export async function getProduct(client: ApiClient, id: string): Promise<Product> {
  return (await client.request({ method: 'GET', path: itemPath('/products', id) }, Product)).body;
}

/** POST /products. A repeat after an ambiguous failure could create a twin, so it is not repeated blindly. */
export async function createProduct(client: ApiClient, input: ProductInput): Promise<Product> {
  return (
    await client.request({ method: 'POST', path: '/products', body: input, repeatable: false }, Product)
  ).body;
}

/** PATCH /products/{id}: the answer carries `sync`; its Idempotency-Key makes a repeat safe. */
export async function updateProduct(client: ApiClient, id: string, body: ProductUpdate): Promise<Product> {
  const spec = { method: 'PATCH' as const, path: itemPath('/products', id), body, repeatable: true };
  return (await client.request(spec, Product)).body;
}

/** DELETE /products/{id}. Not repeated blindly: a repeat of an applied delete would answer 404. */
export async function deleteProduct(client: ApiClient, id: string): Promise<Deleted> {
  return (
    await client.request({ method: 'DELETE', path: itemPath('/products', id), repeatable: false }, Deleted)
  ).body;
}

/**
 * POST /products/batch with up to 100 items. Items are matched by variant SKU, so a repeat
 * updates what a lost first attempt created: safe when every item has a SKU.
 */
export async function upsertProducts(
  client: ApiClient,
  items: ProductInput[],
  signal?: AbortSignal,
): Promise<BatchResult> {
  const repeatable = items.every((item) => (item.variants?.length ?? 0) > 0);
  const spec = { method: 'POST' as const, path: '/products/batch', body: { items }, repeatable, signal };
  return (await client.request(spec, BatchResult)).body;
}
