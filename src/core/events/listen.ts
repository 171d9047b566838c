/**
 * `events listen`: poll the event log at a pace inside the rate limit and forward each new
 * event once, oldest first. A receiver that cannot be reached holds the queue: its events
 * wait and go out, in order, once it is back. Runs until the signal aborts.
 */
import type { ApiClient } from '../../client/client.js';
import { listRawEvents, type RawEvent } from '../../client/resources/events.js';
import { ApiError, AuthError, ProtocolError, UsageError } from '../../errors.js';
import { type ForwardOutcome, type ForwardTarget, forwardEvent, outcomeOf } from './forward.js';
import { EventTracker } from './tracker.js';

/** How far behind the newest forwarded event each poll looks again (late-recorded events). */
const LISTEN_LOOKBACK_MS = 10_000;
/** Longest wait between two tries of a receiver that is down. */
const MAX_DOWN_WAIT_MS = 30_000;
/** Gateway answers that mean the receiver behind it is down, not that it refused the event. */
const DOWN_STATUSES = new Set([502, 503, 504]);

/** Counts of a listening session. */
export interface ListenSummary {
  forwarded: number;
  failed: number;
  /** Events still waiting for the receiver when the session ended. */
  waiting: number;
}

/** How a session runs; `signal` ends it. */
export interface ListenOptions extends ForwardTarget {
  client: ApiClient;
  signal: AbortSignal;
  /** Forward events from this time on (--since); default: only those created after start. */
  since?: string;
  /** Pause between polls. */
  intervalMs: number;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** The first poll is done: from here on, new events are forwarded. */
  onReady?: (info: { since?: string; newest?: string }) => void | Promise<void>;
  /** An event was delivered, or given up on after the receiver refused it. */
  onOutcome?: (outcome: ForwardOutcome) => void | Promise<void>;
  /** The receiver cannot be reached; `waiting` events wait for it. */
  onReceiverDown?: (info: { event: RawEvent; error: string; waiting: number; retryInMs: number }) => void;
  /** The receiver is back after being down. */
  onReceiverBack?: () => void;
  /** Reading the event log failed for a moment; polling goes on. */
  onPollError?: (error: Error, retryInMs: number) => void;
}

/** Polls and forwards until `signal` aborts; then returns the counts (never throws for the abort). */
export async function runListen(options: ListenOptions): Promise<ListenSummary> {
  const summary: ListenSummary = { forwarded: 0, failed: 0, waiting: 0 };
  const tracker = new EventTracker(options.since, LISTEN_LOOKBACK_MS);
  let downSince: number | undefined;
  let downWaits = 0;
  try {
    if (options.since === undefined) {
      const newest = await baseline(options, tracker);
      await options.onReady?.({ newest });
    } else {
      await options.onReady?.({ since: options.since });
    }
    let pollFailures = 0;
    for (;;) {
      let fresh: RawEvent[];
      try {
        fresh = tracker.fresh(await poll(options, tracker.createdAfter()));
        pollFailures = 0;
      } catch (error) {
        if (options.signal.aborted || isFatal(error)) throw error;
        pollFailures++;
        const waitMs = Math.min(MAX_DOWN_WAIT_MS, options.intervalMs * 2 ** Math.min(pollFailures, 5));
        options.onPollError?.(error as Error, waitMs);
        await options.sleep(waitMs, options.signal);
        continue;
      }
      let waitMs = options.intervalMs;
      for (let index = 0; index < fresh.length; index++) {
        const event = fresh[index];
        const result = await forwardEvent(event, options);
        const down = !result.ok && (result.failure === 'network' || DOWN_STATUSES.has(result.status ?? 0));
        if (down) {
          downSince ??= options.now();
          downWaits++;
          waitMs = Math.max(waitMs, Math.min(MAX_DOWN_WAIT_MS, 1000 * 2 ** Math.min(downWaits - 1, 5)));
          summary.waiting = fresh.length - index;
          options.onReceiverDown?.({
            event,
            error: result.error?.message ?? `HTTP ${result.status}`,
            waiting: summary.waiting,
            retryInMs: waitMs,
          });
          break;
        }
        if (downSince !== undefined) {
          downSince = undefined;
          downWaits = 0;
          options.onReceiverBack?.();
        }
        summary.waiting = 0;
        tracker.done(event);
        const outcome = outcomeOf(event, result);
        if (outcome.status === 'delivered') summary.forwarded++;
        else summary.failed++;
        await options.onOutcome?.(outcome);
      }
      await options.sleep(waitMs, options.signal);
    }
  } catch (error) {
    if (options.signal.aborted) return summary;
    throw error;
  }
}

/** Marks what the log holds now as already there, so only later events are forwarded; returns the newest time. */
async function baseline(options: ListenOptions, tracker: EventTracker): Promise<string | undefined> {
  let newest: string | undefined;
  for await (const event of listRawEvents(options.client, {}, 'all', options.signal)) {
    newest ??= event.created_at;
    // The log is newest first: past the lookback window nothing can come back in a poll.
    if (Date.parse(event.created_at) < Date.parse(newest) - LISTEN_LOOKBACK_MS) break;
    tracker.done(event);
  }
  return newest;
}

async function poll(options: ListenOptions, createdAfter: string | undefined): Promise<RawEvent[]> {
  const events: RawEvent[] = [];
  for await (const event of listRawEvents(
    options.client,
    { created_after: createdAfter },
    'all',
    options.signal,
  )) {
    events.push(event);
  }
  return events;
}

/** Errors that polling again will not fix: a bad key, a missing scope, a bad request. */
function isFatal(error: unknown): boolean {
  if (error instanceof AuthError || error instanceof UsageError || error instanceof ProtocolError)
    return true;
  if (error instanceof ApiError) return error.status >= 400 && error.status < 500 && error.status !== 429;
  return false;
}
