/**
 * The one delivery module (docs/architecture.md): signed POSTs of events to a
 * webhook receiver, retried with a backoff: `events replay` and `events listen` use it with
 * the CLI's retry policy (src/client/retry.ts). A 2xx answered within the time limit is a
 * delivery; anything else is a failure.
 * Every delivery goes through the one bounded poster (RawPoster), which reads a few KiB of an
 * answer at most: only its status matters.
 */

import { WEBHOOK_ANSWER_TIMEOUT_MS } from '../contract/contract.js';
import { NetworkError } from '../errors.js';
import { defaultSleep } from './pacing/pacer.js';
import { backoffMs, DEFAULT_RETRY_POLICY, parseRetryAfter, type RetryPolicy } from './retry.js';
import { RawPoster } from './transport-poster.js';

/** How one attempt went. */
export interface DeliveryAttempt {
  /** 1 for the first attempt. */
  attempt: number;
  ok: boolean;
  /** The receiver's status, when it answered at all. */
  status?: number;
  /** Why it failed: a NetworkError (refused, reset, timed out) or the non-2xx answer. */
  error?: Error;
  /** `network`: no answer (refused, reset, timeout); `status`: a non-2xx answer. */
  failure?: 'network' | 'status';
  /** The receiver's Retry-After, in ms, when it sent one. */
  retryAfterMs?: number;
  elapsedMs: number;
  /** When another attempt follows, in how many ms. */
  retryInMs?: number;
}

/** How one delivery ended, after every attempt it was given. */
export interface DeliveryResult {
  ok: boolean;
  /** The last status answered, if any. */
  status?: number;
  attempts: number;
  error?: Error;
  failure?: 'network' | 'status';
}

/** How hard to try. */
export interface DeliverOptions {
  /** Time for the receiver to answer one attempt; default 10 s (docs/service-contract.md, Webhooks). */
  timeoutMs?: number;
  /** Attempts in all, the first included (at least 1). */
  attempts: number;
  /** Milliseconds to wait before retry number `retry` (1-based), after `failed`. */
  backoff: (retry: number, failed: DeliveryAttempt) => number;
  signal?: AbortSignal;
  /** Asked before each retry; false ends the delivery as failed (endpoint disabled or deleted). */
  proceed?: () => boolean;
  /** Told about every attempt, e.g. to print "retrying in 2 s". */
  onAttempt?: (attempt: DeliveryAttempt) => void;
}

/** Injectable pieces, for tests and for the emulator's own clock. */
export interface DelivererOptions {
  poster?: RawPoster;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  now?: () => number;
  userAgent?: string;
}

/** Delivers bodies to receivers; close() it when done to release its connections. */
export class Deliverer {
  private readonly poster: RawPoster;
  private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  private readonly now: () => number;

  constructor(private readonly options: DelivererOptions = {}) {
    this.poster = options.poster ?? new RawPoster();
    this.sleep = options.sleep ?? defaultSleep;
    this.now = options.now ?? Date.now;
  }

  /**
   * POSTs `body` to `url` with `headers` until a 2xx or the attempts run out. Each attempt
   * gets `headers()` afresh when it is a function, so a signature can carry the time it is sent.
   * Only an abort of `signal` throws (its reason); every other failure is in the result.
   */
  async deliver(
    url: string,
    body: string,
    headers: Record<string, string> | (() => Record<string, string>),
    options: DeliverOptions,
  ): Promise<DeliveryResult> {
    const attempts = Math.max(1, Math.floor(options.attempts));
    const timeoutMs = options.timeoutMs ?? WEBHOOK_ANSWER_TIMEOUT_MS;
    let last: DeliveryAttempt | undefined;
    for (let attempt = 1; attempt <= attempts; attempt++) {
      if (attempt > 1 && options.proceed && !options.proceed()) break;
      const base = typeof headers === 'function' ? headers() : headers;
      const sent = {
        'content-type': 'application/json',
        'user-agent': this.options.userAgent ?? 'svc-webhooks',
        ...base,
      };
      const started = this.now();
      const current: DeliveryAttempt = { attempt, ok: false, elapsedMs: 0 };
      try {
        const answer = await this.poster.post(url, body, sent, { timeoutMs, signal: options.signal });
        current.status = answer.status;
        current.ok = answer.status >= 200 && answer.status < 300;
        if (!current.ok) {
          current.failure = 'status';
          current.error = new Error(`the receiver answered HTTP ${answer.status}`);
          current.retryAfterMs = parseRetryAfter(answer.headers['retry-after'], this.now());
        }
      } catch (error) {
        if (options.signal?.aborted) throw options.signal.reason;
        current.failure = 'network';
        current.error = error instanceof Error ? error : new NetworkError(String(error));
      }
      current.elapsedMs = this.now() - started;
      last = current;
      if (!current.ok && attempt < attempts)
        current.retryInMs = Math.max(0, options.backoff(attempt, current));
      options.onAttempt?.(current);
      if (current.ok) break;
      if (current.retryInMs !== undefined) await this.sleep(current.retryInMs, options.signal);
    }
    return {
      ok: last?.ok ?? false,
      status: last?.status,
      attempts: last?.attempt ?? 0,
      error: last?.error,
      failure: last?.failure,
    };
  }

  /** Releases the connections. */
  close(): Promise<void> {
    return this.poster.close();
  }
}

/**
 * The CLI's retry policy as a delivery backoff: full-jitter exponential from 0.5 s, capped,
 * with a receiver's Retry-After honoured up to the policy's limit.
 */
export function policyBackoff(
  random: () => number = Math.random,
  policy: RetryPolicy = DEFAULT_RETRY_POLICY,
): DeliverOptions['backoff'] {
  return (retry, failed) => {
    const asked = failed.retryAfterMs;
    if (asked !== undefined && asked <= policy.maxRetryAfterMs) return asked;
    return backoffMs(retry, random, policy);
  };
}
