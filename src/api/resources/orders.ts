/** Orders from every channel in one shape. */
import type { ApiClient } from '../client.js';
import { Order } from '../schemas/order.js';
import { itemPath } from './paths.js';

/** Filters of GET /orders, named as the API names them. */
export interface OrderFilters {
  status?: string;
  channel?: string;
  channel_account_id?: string;
  created_after?: string;
}

/** GET /orders, paged (needs orders:read). */
export function listOrders(client: ApiClient, filters: OrderFilters, limit: number | 'all'): AsyncGenerator<Order> {
  return client.list('/orders', { ...filters }, Order, { limit });
}

/** GET /orders/{id}. */
export async function getOrder(client: ApiClient, id: string): Promise<Order> {
  return (await client.request({ method: 'GET', path: itemPath('/orders', id) }, Order)).body;
}
