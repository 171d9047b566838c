/**
 * The retry policy (docs/guide.md, Waits and deadlines) as pure functions: which failures are retried,
 * how long to wait, and which waits count against --max-retries. The transport runs the loop.
 */
import { ERROR_CODES, RETRY_AFTER_MIN_MS } from '../contract/contract.js';

/** The numbers of the policy, whose defaults the guide states (docs/guide.md, Waits and deadlines). */
export interface RetryPolicy {
  /** Retries of one request for network errors and 5xx (default 5). */
  maxRetries: number;
  /** First backoff ceiling; doubles per retry (0.5 s). */
  baseDelayMs: number;
  /** Backoff ceiling (20 s). */
  maxDelayMs: number;
  /** A Retry-After longer than this fails the request instead (120 s). */
  maxRetryAfterMs: number;
  /**
   * Rate-limit waits do not count against maxRetries, so a broken server could answer 429
   * forever; this caps their total per request.
   */
  maxRateLimitWaitMs: number;
  /** ...and the number of their attempts, so that no answer loops a request without end. */
  maxRateLimitWaits: number;
}

/** The numbers the guide gives (docs/guide.md, Waits and deadlines). */
export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxRetries: 5,
  baseDelayMs: 500,
  maxDelayMs: 20_000,
  maxRetryAfterMs: 120_000,
  maxRateLimitWaitMs: 10 * 60_000,
  maxRateLimitWaits: 60,
};

/** What went wrong with one attempt, as far as the policy cares. */
export type AttemptFailure =
  | { kind: 'status'; status: number; code?: string; retryAfterMs?: number }
  /** `sent`: the request may have reached the service (reset, read timeout), so a repeat may apply it twice. */
  | { kind: 'network'; sent: boolean; fatal?: boolean };

/** Retries and waits spent so far on one logical request. */
export interface RetryState {
  /** Retries that count against maxRetries. */
  retries: number;
  /** Total time waited for 429 rate_limit_exceeded. */
  rateLimitWaitedMs: number;
  /** How many times a 429 rate_limit_exceeded was waited for. */
  rateLimitWaits?: number;
}

/** Why a failure ends the request. */
export type GiveUpReason =
  | 'not-retryable'
  | 'retries-exhausted'
  | 'retry-after-too-long'
  | 'rate-limit-budget'
  | 'ambiguous'
  | 'quota';

/** The policy's answer: wait and retry (and whether it counts), or give up. */
export type RetryDecision =
  | { retry: true; delayMs: number; counted: boolean; rateLimit: boolean }
  | { retry: false; reason: GiveUpReason };

/** Full-jitter exponential backoff before retry number `retry` (1-based): uniform in [0, min(cap, base·2^(retry-1))). */
export function backoffMs(
  retry: number,
  random: () => number,
  policy: RetryPolicy = DEFAULT_RETRY_POLICY,
): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, retry - 1));
  return Math.floor(random() * ceiling);
}

/** An HTTP-date starts with a day name (IMF-fixdate, RFC 850 and asctime forms alike). */
const HTTP_DATE =
  /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun)[a-z]*,? +\d{1,2}[ -]|^(Mon|Tue|Wed|Thu|Fri|Sat|Sun) +[A-Z][a-z]{2} /;

/**
 * Milliseconds a Retry-After header asks for (delta-seconds or an HTTP date), raised to the
 * 1 s floor; undefined when absent or unreadable (`-5`, a list `10, 20`): Date.parse would
 * take those for dates in 2001, which is no wait at all.
 */
export function parseRetryAfter(value: string | undefined, nowMs: number): number | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  let ms: number;
  if (/^\d+(\.\d+)?$/.test(trimmed)) ms = Math.round(Number(trimmed) * 1000);
  else if (HTTP_DATE.test(trimmed) && !Number.isNaN(Date.parse(trimmed))) ms = Date.parse(trimmed) - nowMs;
  else return undefined;
  return Math.max(RETRY_AFTER_MIN_MS, ms);
}

/**
 * How long a 429's Retry-After holds the whole key (every request, and every process sharing
 * its pacing): none beyond what the policy waits for, since that request fails instead, and
 * holding the key that long would only stall runs that can learn it for themselves.
 */
export function keyPauseMs(
  retryAfterMs: number | undefined,
  policy: RetryPolicy = DEFAULT_RETRY_POLICY,
): number | undefined {
  return retryAfterMs !== undefined && retryAfterMs > policy.maxRetryAfterMs ? undefined : retryAfterMs;
}

/** Whether a 429 is the daily write quota (never waited for) rather than the rate limit. */
export function isQuotaExhausted(status: number, code: string | undefined): boolean {
  return status === 429 && code === ERROR_CODES.writeQuotaExceeded;
}

/**
 * Decide what to do after a failed attempt. `repeatable` says whether sending the request
 * again is safe when it may already have been applied (GETs, absolute or deduplicated writes).
 */
export function decideRetry(
  failure: AttemptFailure,
  state: RetryState,
  repeatable: boolean,
  random: () => number,
  policy: RetryPolicy = DEFAULT_RETRY_POLICY,
): RetryDecision {
  if (failure.kind === 'network') {
    if (failure.fatal) return { retry: false, reason: 'not-retryable' };
    if (failure.sent && !repeatable) return { retry: false, reason: 'ambiguous' };
    return counted(state, random, policy);
  }
  const { status, retryAfterMs } = failure;
  if (status === 429) {
    if (isQuotaExhausted(status, failure.code)) return { retry: false, reason: 'quota' };
    // Pacing, not failure: waits do not count, but their total is capped.
    const delayMs = Math.max(RETRY_AFTER_MIN_MS, retryAfterMs ?? RETRY_AFTER_MIN_MS);
    if (delayMs > policy.maxRetryAfterMs) return { retry: false, reason: 'retry-after-too-long' };
    if (
      state.rateLimitWaitedMs + delayMs > policy.maxRateLimitWaitMs ||
      (state.rateLimitWaits ?? 0) >= policy.maxRateLimitWaits
    ) {
      return { retry: false, reason: 'rate-limit-budget' };
    }
    return { retry: true, delayMs, counted: false, rateLimit: true };
  }
  if (status >= 500) {
    // A gateway timeout may hide an upstream that applied the write; other 5xx were not applied.
    if (status === 504 && !repeatable) return { retry: false, reason: 'ambiguous' };
    if (retryAfterMs !== undefined && retryAfterMs > policy.maxRetryAfterMs) {
      return { retry: false, reason: 'retry-after-too-long' };
    }
    return counted(state, random, policy, retryAfterMs);
  }
  // Any other status (400, 401, 403, 404, 409, 412, 422, …) says the request itself is wrong.
  return { retry: false, reason: 'not-retryable' };
}

function counted(
  state: RetryState,
  random: () => number,
  policy: RetryPolicy,
  retryAfterMs?: number,
): RetryDecision {
  if (state.retries >= policy.maxRetries) return { retry: false, reason: 'retries-exhausted' };
  const delayMs = retryAfterMs ?? backoffMs(state.retries + 1, random, policy);
  return { retry: true, delayMs, counted: true, rateLimit: false };
}
