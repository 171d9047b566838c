/**
 * `events replay`: read the event log for a window, oldest first, each event once, and send
 * each to a receiver signed as the service signs. No printing: outcomes go to a callback.
 */

import type { ApiClient } from '../../client/client.js';
import { listRawEvents, type RawEvent } from '../../client/resources/events.js';
import { EVENT_LOG_WINDOW_DAYS } from '../../contract/contract.js';
import { UsageError } from '../../errors.js';
import { type ForwardOutcome, type ForwardTarget, forwardEvent, outcomeOf } from './forward.js';
import { oldestFirst } from './tracker.js';

// A duration such as `30d` is turned into a time when the flag is parsed, a moment before
// the window is checked; this much slack keeps it inside.
const WINDOW_SLACK_MS = 60_000;

/** Refuses a `--since` older than the event log keeps (exit 2, nothing sent). */
export function checkReplayWindow(since: string, nowMs: number): void {
  const oldest = nowMs - EVENT_LOG_WINDOW_DAYS * 86_400_000;
  if (Date.parse(since) < oldest - WINDOW_SLACK_MS) {
    throw new UsageError(
      `--since ${since} is older than the event log's ${EVENT_LOG_WINDOW_DAYS}-day window (it starts at ${new Date(oldest).toISOString()}); use a later time, e.g. --since ${EVENT_LOG_WINDOW_DAYS}d`,
    );
  }
}

/** Every event of the window, oldest first, each id once. */
export async function collectWindow(
  client: ApiClient,
  filters: { since: string; type?: string },
  signal?: AbortSignal,
): Promise<RawEvent[]> {
  const events: RawEvent[] = [];
  for await (const event of listRawEvents(
    client,
    { created_after: filters.since, type: filters.type },
    'all',
    signal,
  )) {
    events.push(event);
  }
  return oldestFirst(events);
}

/** Counts of a replay. */
export interface ReplaySummary {
  total: number;
  delivered: number;
  failed: number;
  skipped: number;
  seconds: number;
  /** Set when the run stopped early because the receiver could not be reached. */
  stoppedBecause?: string;
  /** Set when SIGINT or SIGTERM stopped the run. */
  interrupted?: boolean;
  /** When events were left undelivered, the creation time of the oldest: a replay from it sends them. */
  resumeSince?: string;
}

/** How a replay runs. */
export interface ReplayOptions extends ForwardTarget {
  /** Told of every event's outcome, in order. */
  onOutcome?: (outcome: ForwardOutcome) => void | Promise<void>;
}

/**
 * Sends `events` in order, one at a time. A non-2xx answer is retried, then counted failed
 * and the run goes on; a receiver that cannot be reached at all after the retries stops the
 * run, and the events not tried are counted skipped (none is marked delivered).
 */
export async function runReplay(events: RawEvent[], options: ReplayOptions): Promise<ReplaySummary> {
  const started = options.now();
  const summary: ReplaySummary = { total: events.length, delivered: 0, failed: 0, skipped: 0, seconds: 0 };
  for (let index = 0; index < events.length; index++) {
    const event = events[index];
    let outcome: ForwardOutcome;
    try {
      outcome = outcomeOf(event, await forwardEvent(event, options));
    } catch (error) {
      if (!options.signal?.aborted) throw error;
      // Interrupted: what was not confirmed counts as skipped, so the summary stays true.
      summary.interrupted = true;
      summary.skipped += events.length - index;
      summary.resumeSince ??= event.created_at;
      break;
    }
    if (outcome.status === 'delivered') summary.delivered++;
    else {
      summary.failed++;
      summary.resumeSince ??= event.created_at;
    }
    await options.onOutcome?.(outcome);
    if (outcome.unreachable) {
      summary.stoppedBecause = outcome.error;
      summary.resumeSince ??= events[index + 1]?.created_at;
      for (const skipped of events.slice(index + 1)) {
        summary.skipped++;
        await options.onOutcome?.({
          event: skipped,
          status: 'skipped',
          attempts: 0,
          error: 'not sent: the receiver could not be reached',
        });
      }
      break;
    }
  }
  summary.seconds = (options.now() - started) / 1000;
  return summary;
}
