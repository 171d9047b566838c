/** Orders from every channel in one shape, and their fulfillment. */

import { ENDPOINTS } from '../../contract/endpoints.js';
import { requestLine } from '../../contract/operations/operation.js';
import type { Order } from '../../contract/schemas/order.js';
import type { ApiClient, PageInfo } from '../client.js';
import type { PagedList } from '../paginate.js';

/** Filters of the order list, named as the API names them. */
export interface OrderFilters {
  status?: string;
  channel?: string;
  channel_account_id?: string;
  created_after?: string;
}

/** Extra options of a crawl of the order list. */
export interface ListOrdersOptions {
  /** Told about each page (its server clock) before its items are yielded. */
  onPage?: (page: PageInfo) => void;
  signal?: AbortSignal;
}

/** The orders, paged (needs orders:read). */
export function listOrders(
  client: ApiClient,
  filters: OrderFilters,
  limit: number | 'all',
  options: ListOrdersOptions = {},
): PagedList<Order> {
  return client.call(ENDPOINTS.listOrders, { query: filters, limit, ...options });
}

/** One order. */
export function getOrder(client: ApiClient, id: string): Promise<Order> {
  return client.call(ENDPOINTS.getOrder, { id });
}

/** Tracking attached to a fulfillment. */
export interface TrackingInput {
  number: string;
  carrier: string;
  url?: string;
}

/** The body of a fulfillment (a tracking URL only when there is one). */
export function fulfillmentBody(tracking: TrackingInput): { tracking: TrackingInput } {
  const { number, carrier, url } = tracking;
  return { tracking: url === undefined ? { number, carrier } : { number, carrier, url } };
}

/** The method and path a fulfillment of `id` is sent to, as a dry run shows it. */
export function fulfillmentRequest(id: string): string {
  return requestLine(ENDPOINTS.fulfillOrder, { id });
}

/**
 * Marks an order shipped (needs orders:write). Not repeatable: the live service does not
 * promise idempotency here and the marketplace is notified, so an ambiguous failure raises
 * AmbiguousWriteError and the caller reads the order back before repeating.
 */
export function fulfillOrder(
  client: ApiClient,
  id: string,
  tracking: TrackingInput,
  options: { idempotencyKey?: string; signal?: AbortSignal } = {},
): Promise<Order> {
  return client.call(ENDPOINTS.fulfillOrder, { id, body: fulfillmentBody(tracking), ...options });
}
