/** GET /events: the event log of the last 30 days, created_at descending. */
import { EVENT_LOG_WINDOW_DAYS } from '../../../api/contract.js';
import { isoTime } from '../../clock.js';
import type { EventRecord } from '../../model.js';
import { paginate, parsePage, parseTimeParam, stringParam } from '../pagination.js';
import type { Handler } from '../router.js';

/** GET /events: created_after (inclusive) and type (exact, or `prefix.*`). */
export const listEvents: Handler = (store, request) => {
  const page = parsePage(request.query);
  const createdAfter = parseTimeParam(request.query, 'created_after');
  const type = stringParam(request.query, 'type');
  const windowStart = isoTime(store.now() - EVENT_LOG_WINDOW_DAYS * 86_400_000);
  const typePrefix = type?.endsWith('.*') ? type.slice(0, -1) : undefined;
  const envelope = paginate<EventRecord>(
    store.events.values(),
    { key: (event) => event.created_at, direction: 'desc' },
    page,
    (event) =>
      event.created_at >= windowStart &&
      (createdAfter === undefined || event.created_at >= createdAfter) &&
      (type === undefined || (typePrefix ? event.type.startsWith(typePrefix) : event.type === type)),
  );
  return { status: 200, body: envelope };
};
