/** The event log: the last 30 days of events. */

import { Event } from '../../contract/schemas/event.js';
import { ProtocolError } from '../../errors.js';
import type { ApiClient } from '../client.js';
import type { PagedList } from '../paginate.js';

/** Filters of GET /events. */
export interface EventFilters {
  created_after?: string;
  type?: string;
}

/** GET /events, paged (created_at descending). */
export function listEvents(
  client: ApiClient,
  filters: EventFilters,
  limit: number | 'all',
): PagedList<Event> {
  return client.list('/events', { ...filters }, Event, { limit });
}

/** An event exactly as the log returned it: unknown fields kept, key order untouched. */
export type RawEvent = Event;

/**
 * GET /events, paged, each item checked against the Event schema but yielded as it came, so
 * that forwarding it (`events replay`, `events listen`) sends exactly the event's JSON.
 */
export async function* listRawEvents(
  client: ApiClient,
  filters: EventFilters,
  limit: number | 'all',
  signal?: AbortSignal,
): AsyncGenerator<RawEvent> {
  for await (const item of client.list<unknown>('/events', { ...filters }, undefined, { limit, signal })) {
    const checked = Event.safeParse(item);
    if (!checked.success) {
      const issue = checked.error.issues[0];
      throw new ProtocolError(
        `unexpected answer to GET /events: ${issue?.path.join('.') || 'item'}: ${issue?.message ?? 'invalid'}`,
      );
    }
    yield item as RawEvent;
  }
}
