/** One event sent to a receiver as the service would send it: the event's JSON, freshly signed. */
import {
  type Deliverer,
  type DeliveryAttempt,
  type DeliveryResult,
  policyBackoff,
} from '../../client/delivery.js';
import type { RawEvent } from '../../client/resources/events.js';
import { signedHeaders } from '../../contract/signature.js';

/** Where and how events are forwarded. */
export interface ForwardTarget {
  deliverer: Deliverer;
  url: string;
  secret: string;
  /** The clock that stamps signatures (Unix ms). */
  now: () => number;
  /** Jitter source of the backoff. */
  random?: () => number;
  /** Attempts per event, the first included. */
  attempts: number;
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Told of each failed attempt that will be retried. */
  onRetry?: (event: RawEvent, attempt: DeliveryAttempt) => void;
}

/** How one event's forwarding ended. */
export interface ForwardOutcome {
  event: RawEvent;
  status: 'delivered' | 'failed' | 'skipped';
  /** The receiver's last HTTP status, if it answered. */
  httpStatus?: number;
  attempts: number;
  /** Why it failed or was skipped. */
  error?: string;
  /** No answer at all (refused, reset, timed out), as opposed to a non-2xx answer. */
  unreachable?: boolean;
}

/** The body a receiver gets: exactly the event's JSON. */
function eventBody(event: RawEvent): string {
  return JSON.stringify(event);
}

/** Delivers one event with retries; each attempt carries a signature made when it is sent. */
export async function forwardEvent(event: RawEvent, target: ForwardTarget): Promise<DeliveryResult> {
  const body = eventBody(event);
  return target.deliverer.deliver(target.url, body, () => signedHeaders(target.secret, body, target.now()), {
    attempts: target.attempts,
    timeoutMs: target.timeoutMs,
    backoff: policyBackoff(target.random),
    signal: target.signal,
    onAttempt: (attempt) => {
      if (!attempt.ok && attempt.retryInMs !== undefined) target.onRetry?.(event, attempt);
    },
  });
}

/** The outcome of a finished delivery, as summaries count it. */
export function outcomeOf(event: RawEvent, result: DeliveryResult): ForwardOutcome {
  return {
    event,
    status: result.ok ? 'delivered' : 'failed',
    httpStatus: result.status,
    attempts: result.attempts,
    error: result.ok ? undefined : result.error?.message,
    unreachable: !result.ok && result.failure === 'network',
  };
}
