/** GET /events: the event log of the last 30 days, created_at descending. */
import { EVENT_LOG_WINDOW_DAYS } from '../../../contract/contract.js';
import { isoTime } from '../../clock.js';
import type { EventRecord } from '../../model.js';
import { listPage, olderThan, parsePage, parseTimeParam, stringParam } from '../pagination.js';
import type { Handler } from '../router.js';

/** GET /events: created_after (inclusive) and type (exact, or `prefix.*`). */
export const listEvents: Handler = (store, request) => {
  const page = parsePage(request);
  const createdAfter = parseTimeParam(request.query, 'created_after');
  const type = stringParam(request.query, 'type');
  const windowStart = isoTime(store.now() - EVENT_LOG_WINDOW_DAYS * 86_400_000);
  const typePrefix = type?.endsWith('.*') ? type.slice(0, -1) : undefined;
  const since = createdAfter !== undefined && createdAfter > windowStart ? createdAfter : windowStart;
  const envelope = listPage<EventRecord>(store.events, page, [], {
    filter: (event) =>
      type === undefined || (typePrefix ? event.type.startsWith(typePrefix) : event.type === type),
    stop: olderThan(since, (event) => event.created_at),
  });
  return { status: 200, body: envelope };
};
