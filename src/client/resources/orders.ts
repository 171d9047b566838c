/** Orders from every channel in one shape, and their fulfillment. */

import { Order } from '../../contract/schemas/order.js';
import type { ApiClient, PageInfo } from '../client.js';
import type { PagedList } from '../paginate.js';
import { itemPath } from './paths.js';

/** Filters of GET /orders, named as the API names them. */
export interface OrderFilters {
  status?: string;
  channel?: string;
  channel_account_id?: string;
  created_after?: string;
}

/** Extra options of a crawl of GET /orders. */
export interface ListOrdersOptions {
  /** Told about each page (its server clock) before its items are yielded. */
  onPage?: (page: PageInfo) => void;
  signal?: AbortSignal;
}

/** GET /orders, paged (needs orders:read). */
export function listOrders(
  client: ApiClient,
  filters: OrderFilters,
  limit: number | 'all',
  options: ListOrdersOptions = {},
): PagedList<Order> {
  return client.list('/orders', { ...filters }, Order, { limit, ...options });
}

/** GET /orders/{id}. */
export async function getOrder(client: ApiClient, id: string): Promise<Order> {
  return (await client.request({ method: 'GET', path: itemPath('/orders', id) }, Order)).body;
}

/** Tracking attached to a fulfillment. */
export interface TrackingInput {
  number: string;
  carrier: string;
  url?: string;
}

/** The path of an order's fulfillment. */
export function fulfillmentPath(id: string): string {
  return `${itemPath('/orders', id)}/fulfillment`;
}

/** The body of POST /orders/{id}/fulfillment (a tracking URL only when there is one). */
export function fulfillmentBody(tracking: TrackingInput): { tracking: TrackingInput } {
  const { number, carrier, url } = tracking;
  return { tracking: url === undefined ? { number, carrier } : { number, carrier, url } };
}

/**
 * POST /orders/{id}/fulfillment (needs orders:write). Not repeatable: the live service does
 * not promise idempotency here and the marketplace is notified, so an ambiguous failure
 * raises AmbiguousWriteError and the caller reads the order back before repeating.
 */
export async function fulfillOrder(
  client: ApiClient,
  id: string,
  tracking: TrackingInput,
  options: { idempotencyKey?: string; signal?: AbortSignal } = {},
): Promise<Order> {
  return (
    await client.request(
      {
        method: 'POST',
        path: fulfillmentPath(id),
        body: fulfillmentBody(tracking),
        repeatable: false,
        idempotencyKey: options.idempotencyKey,
        signal: options.signal,
      },
      Order,
    )
  ).body;
}
