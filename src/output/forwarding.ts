/** How `events replay` and `events listen` show each event they sent to a receiver. */
import type { ForwardOutcome } from '../core/events/forward.js';
import { plural } from '../words.js';

/** "delivered  evt_123  order.created  2026-11-01T09:00:00.000Z  HTTP 200 (1 attempt)". */
export function outcomeLine(outcome: ForwardOutcome): string {
  const { event } = outcome;
  const answer = outcome.httpStatus !== undefined ? `HTTP ${outcome.httpStatus}` : 'no answer';
  const attempts = `${outcome.attempts} ${plural(outcome.attempts, 'attempt')}`;
  const detail =
    outcome.status === 'delivered'
      ? `${answer} (${attempts})`
      : outcome.status === 'skipped'
        ? (outcome.error ?? 'not sent')
        : `${outcome.error ?? answer} (${attempts})`;
  return [outcome.status.padEnd(9), event.id, event.type, event.created_at, detail].join('  ');
}

/** The outcome as one JSON object, for --json and -o ndjson. */
export function outcomeJson(outcome: ForwardOutcome): Record<string, unknown> {
  return {
    id: outcome.event.id,
    type: outcome.event.type,
    created_at: outcome.event.created_at,
    status: outcome.status,
    http_status: outcome.httpStatus ?? null,
    attempts: outcome.attempts,
    error: outcome.error ?? null,
  };
}
