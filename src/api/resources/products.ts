/** The catalog: products with their variants, images and listing summaries. */
import type { ApiClient } from '../client.js';
import { Product } from '../schemas/product.js';
import { itemPath } from './paths.js';

/** Filters of GET /products. */
export interface ProductFilters {
  updated_after?: string;
}

/** GET /products, paged (updated_at descending). */
export function listProducts(client: ApiClient, filters: ProductFilters, limit: number | 'all'): AsyncGenerator<Product> {
  return client.list('/products', { ...filters }, Product, { limit });
}

/** GET /products/{id}. */
export async function getProduct(client: ApiClient, id: string): Promise<Product> {
  return (await client.request({ method: 'GET', path: itemPath('/products', id) }, Product)).body;
}
