/** The event log: the last 30 days of events. */
import type { ApiClient } from '../client.js';
import { Event } from '../schemas/event.js';

/** Filters of GET /events. */
export interface EventFilters {
  created_after?: string;
  type?: string;
}

/** GET /events, paged (created_at descending). */
export function listEvents(client: ApiClient, filters: EventFilters, limit: number | 'all'): AsyncGenerator<Event> {
  return client.list('/events', { ...filters }, Event, { limit });
}
