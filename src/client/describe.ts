/**
 * The lines the transport writes about its work: --debug lines (secrets redacted), short
 * notices while it waits, and the error a request ends with when it gives up.
 */

import { IDEMPOTENT_REPLAYED_HEADER, maskKey, RATE_LIMIT_HEADERS } from '../contract/contract.js';
import { AmbiguousWriteError, ApiError, NetworkError, RateLimitError } from '../errors.js';
import { plural } from '../words.js';
import type { RawAnswer } from './normalize.js';
import type { GiveUpReason, RetryDecision, RetryPolicy, RetryState } from './retry.js';
import type { RequestSpec } from './types.js';

/** `→ PATCH http://…/rest/v1/inventory/SKU-1 idem=… auth=svc_live_…abcd`: the key masked. */
export function requestLine(method: string, url: string, headers: Record<string, string>): string {
  const idempotencyKey = headers['idempotency-key'];
  const authorization = headers.authorization;
  const idem = idempotencyKey ? ` idem=${idempotencyKey}` : '';
  const auth = authorization ? ` auth=${maskKey(authorization.replace(/^Bearer\s+/i, ''))}` : '';
  return `→ ${method} ${url}${idem}${auth}`;
}

/** `← 200 in 12 ms, remaining 79/80`, with Retry-After and idempotent replays when present. */
export function answerLine(raw: RawAnswer, elapsedMs: number): string {
  const remaining = raw.headers[RATE_LIMIT_HEADERS.remaining];
  const limit = raw.headers[RATE_LIMIT_HEADERS.limit];
  const budget = remaining !== undefined ? `, remaining ${remaining}/${limit ?? '?'}` : '';
  const retryAfter = raw.headers['retry-after'] ? `, retry-after ${raw.headers['retry-after']}` : '';
  const replayed = raw.headers[IDEMPOTENT_REPLAYED_HEADER] === 'true' ? ', replayed' : '';
  return `← ${raw.status} in ${Math.round(elapsedMs)} ms${budget}${retryAfter}${replayed}`;
}

/** `rate limited; waiting 3 s` or `HTTP 503 service_unavailable; retry 2/5 in 1.2 s`. */
export function retryNotice(
  error: Error,
  decision: Extract<RetryDecision, { retry: true }>,
  retries: number,
  max: number,
): string {
  if (decision.rateLimit) return `rate limited; waiting ${seconds(decision.delayMs)}`;
  return `${shortReason(error)}; retry ${retries}/${max} in ${seconds(decision.delayMs)}`;
}

/** The error a request ends with when the policy gives up on `error`. */
export function giveUp(
  error: Error,
  reason: GiveUpReason,
  spec: RequestSpec,
  state: RetryState,
  policy: RetryPolicy,
): Error {
  const { retries } = state;
  if (reason === 'ambiguous') {
    const what = `${spec.method} ${spec.path} may or may not have been applied (${shortReason(error)})`;
    return new AmbiguousWriteError(`${what}; read it back before repeating it`, { cause: error });
  }
  if (reason === 'retry-after-too-long' && error instanceof ApiError && error.status === 429) {
    const limit = policy.maxRetryAfterMs / 1000;
    const asked = error.retryAfterSeconds;
    return new RateLimitError(
      `rate limited: the service asks to wait ${asked} s, longer than ${limit} s`,
      asked,
    );
  }
  if (reason === 'retry-after-too-long' && error instanceof ApiError) {
    const limit = policy.maxRetryAfterMs / 1000;
    return new ApiError(
      error.status,
      {
        type: error.type,
        code: error.code,
        message: `the service asks to wait ${error.retryAfterSeconds} s before a retry, longer than ${limit} s: try again later`,
      },
      { retryAfterSeconds: error.retryAfterSeconds, requestId: error.requestId },
    );
  }
  if (reason === 'rate-limit-budget') {
    const waited = Math.round(state.rateLimitWaitedMs / 1000);
    const waits = state.rateLimitWaits ?? 0;
    // RateLimitError holds seconds (retryAfterOf gives ms); describeError adds when to run again.
    const after = error instanceof ApiError ? error.retryAfterSeconds : undefined;
    return new RateLimitError(
      `still rate limited after ${waits} ${plural(waits, 'wait')} (${waited} s in all)`,
      after,
    );
  }
  if (reason === 'retries-exhausted' && retries > 0 && error instanceof NetworkError) {
    const after = `after ${retries} ${plural(retries, 'retry', 'retries')}`;
    return new NetworkError(`${error.message}, ${after}`, error.code, { cause: error.cause });
  }
  return error;
}

/** Retry-After of an error answer in ms, when it had one. */
export function retryAfterOf(error: Error): number | undefined {
  const after = error instanceof ApiError ? error.retryAfterSeconds : undefined;
  return after === undefined ? undefined : after * 1000;
}

/** `HTTP 503 service_unavailable`, or the words in a network error's parentheses. */
function shortReason(error: Error): string {
  if (error instanceof ApiError) return `HTTP ${error.status}${error.code ? ` ${error.code}` : ''}`;
  const match = /\(([^)]+)\)/.exec(error.message);
  return match ? match[1] : error.message;
}

/** A duration for people: `3 s`, `1.2 s`, `45 s`. */
export function seconds(ms: number): string {
  return ms >= 10_000 || ms % 1000 === 0 ? `${Math.round(ms / 1000)} s` : `${(ms / 1000).toFixed(1)} s`;
}
