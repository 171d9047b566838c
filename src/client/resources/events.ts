/** The event log: the last 30 days of events. */

import { ENDPOINTS } from '../../contract/endpoints.js';
import type { Event } from '../../contract/schemas/event.js';
import type { ApiClient } from '../client.js';
import type { PagedList } from '../paginate.js';

/** Filters of the event log. */
export interface EventFilters {
  created_after?: string;
  type?: string;
}

/** The events, paged (created_at descending). */
export function listEvents(
  client: ApiClient,
  filters: EventFilters,
  limit: number | 'all',
): PagedList<Event> {
  return client.call(ENDPOINTS.listEvents, { query: filters, limit });
}

/** An event exactly as the log returned it: unknown fields kept, key order untouched. */
export type RawEvent = Event;

/**
 * The events, paged, each item checked against the Event schema but yielded as it came, so
 * that forwarding it (`events replay`, `events listen`) sends exactly the event's JSON.
 */
export function listRawEvents(
  client: ApiClient,
  filters: EventFilters,
  limit: number | 'all',
  signal?: AbortSignal,
): PagedList<RawEvent> {
  return client.call(ENDPOINTS.listEvents, { query: filters, limit, signal, asSent: true });
}
