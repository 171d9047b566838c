import { describe, expect, it } from 'vitest';
import {
  type AttemptFailure,
  backoffMs,
  DEFAULT_RETRY_POLICY,
  decideRetry,
  keyPauseMs,
  parseRetryAfter,
} from '../../../src/client/retry.js';

const fresh = { retries: 0, rateLimitWaitedMs: 0 };
const half = () => 0.5;
const top = () => 0.999999;

function status(
  code: number,
  extra: Partial<Extract<AttemptFailure, { kind: 'status' }>> = {},
): AttemptFailure {
  return { kind: 'status', status: code, ...extra };
}

describe('backoffMs', () => {
  it('draws uniformly below 0.5 s doubling per retry, capped at 20 s (full jitter)', () => {
    expect(backoffMs(1, top)).toBe(499);
    expect(backoffMs(2, top)).toBe(999);
    expect(backoffMs(3, half)).toBe(1000);
    expect(backoffMs(7, top)).toBe(19_999);
    expect(backoffMs(12, top)).toBe(19_999);
    expect(backoffMs(4, () => 0)).toBe(0);
  });
});

describe('parseRetryAfter', () => {
  it('reads delta-seconds and HTTP dates', () => {
    const now = Date.parse('2025-01-01T00:00:00Z');
    expect(parseRetryAfter('3', now)).toBe(3000);
    expect(parseRetryAfter(' 0 ', now)).toBe(1000);
    expect(parseRetryAfter('Wed, 01 Jan 2025 00:00:10 GMT', now)).toBe(10_000);
    expect(parseRetryAfter('Tue, 31 Dec 2024 00:00:10 GMT', now)).toBe(1000);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    // Date.parse reads these as dates in 2001: unreadable, so absent.
    expect(parseRetryAfter('-5', now)).toBeUndefined();
    expect(parseRetryAfter('10, 20', now)).toBeUndefined();
    expect(parseRetryAfter('Wednesday, 01-Jan-25 00:00:05 GMT', now)).toBe(5000);
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
  });
});

describe('keyPauseMs', () => {
  it('holds the key for a Retry-After the policy waits for, and not at all beyond it', () => {
    expect(keyPauseMs(undefined)).toBeUndefined();
    expect(keyPauseMs(30_000)).toBe(30_000);
    expect(keyPauseMs(120_000)).toBe(120_000);
    expect(keyPauseMs(100_000_000)).toBeUndefined();
  });
});

describe('decideRetry', () => {
  it('waits at least 1 s on a 429, and gives up after a bounded number of such waits', () => {
    const limited = { kind: 'status' as const, status: 429, code: 'rate_limit_exceeded', retryAfterMs: 0 };
    expect(decideRetry(limited, fresh, true, half)).toMatchObject({ retry: true, delayMs: 1000 });
    const worn = { retries: 0, rateLimitWaitedMs: 60_000, rateLimitWaits: 60 };
    expect(decideRetry(limited, worn, true, half)).toEqual({ retry: false, reason: 'rate-limit-budget' });
  });

  it('never retries what a retry cannot fix', () => {
    for (const code of [400, 401, 403, 404, 409, 412, 413, 422]) {
      expect(decideRetry(status(code), fresh, true, half)).toEqual({ retry: false, reason: 'not-retryable' });
    }
  });

  it('retries 5xx with counted backoff until maxRetries', () => {
    expect(decideRetry(status(500), fresh, false, half)).toEqual({
      retry: true,
      delayMs: 250,
      counted: true,
      rateLimit: false,
    });
    expect(decideRetry(status(502), { retries: 2, rateLimitWaitedMs: 0 }, false, half)).toMatchObject({
      delayMs: 1000,
    });
    expect(decideRetry(status(503), { retries: 5, rateLimitWaitedMs: 0 }, true, half)).toEqual({
      retry: false,
      reason: 'retries-exhausted',
    });
    const none = { ...DEFAULT_RETRY_POLICY, maxRetries: 0 };
    expect(decideRetry(status(500), fresh, true, half, none)).toMatchObject({ retry: false });
  });

  it('honours Retry-After on a 503, up to 120 s', () => {
    expect(decideRetry(status(503, { retryAfterMs: 7000 }), fresh, true, half)).toMatchObject({
      delayMs: 7000,
      counted: true,
    });
    expect(decideRetry(status(503, { retryAfterMs: 121_000 }), fresh, true, half)).toEqual({
      retry: false,
      reason: 'retry-after-too-long',
    });
  });

  it('treats a 504 as ambiguous for a write that is not safe to repeat', () => {
    expect(decideRetry(status(504), fresh, false, half)).toEqual({ retry: false, reason: 'ambiguous' });
    expect(decideRetry(status(504), fresh, true, half)).toMatchObject({ retry: true });
  });

  it('waits out 429 rate_limit_exceeded without counting it, within a total budget', () => {
    const failure = status(429, { code: 'rate_limit_exceeded', retryAfterMs: 3000 });
    const exhausted = { retries: 5, rateLimitWaitedMs: 0 };
    expect(decideRetry(failure, exhausted, false, half)).toEqual({
      retry: true,
      delayMs: 3000,
      counted: false,
      rateLimit: true,
    });
    expect(decideRetry(status(429), fresh, false, half)).toMatchObject({ delayMs: 1000, counted: false });
    const spent = { retries: 0, rateLimitWaitedMs: DEFAULT_RETRY_POLICY.maxRateLimitWaitMs - 1000 };
    expect(decideRetry(failure, spent, true, half)).toEqual({ retry: false, reason: 'rate-limit-budget' });
    const tooLong = status(429, { code: 'rate_limit_exceeded', retryAfterMs: 121_000 });
    expect(decideRetry(tooLong, fresh, true, half)).toEqual({ retry: false, reason: 'retry-after-too-long' });
  });

  it('never waits for the daily write quota', () => {
    const failure = status(429, { code: 'write_quota_exceeded', retryAfterMs: 3000 });
    expect(decideRetry(failure, fresh, true, half)).toEqual({ retry: false, reason: 'quota' });
  });

  it('retries network failures, unless a write that may have been applied is not safe to repeat', () => {
    const refused: AttemptFailure = { kind: 'network', sent: false };
    const reset: AttemptFailure = { kind: 'network', sent: true };
    expect(decideRetry(refused, fresh, false, half)).toMatchObject({ retry: true, counted: true });
    expect(decideRetry(reset, fresh, true, half)).toMatchObject({ retry: true, counted: true });
    expect(decideRetry(reset, fresh, false, half)).toEqual({ retry: false, reason: 'ambiguous' });
    expect(decideRetry({ kind: 'network', sent: false, fatal: true }, fresh, true, half)).toEqual({
      retry: false,
      reason: 'not-retryable',
    });
    expect(decideRetry(refused, { retries: 5, rateLimitWaitedMs: 0 }, true, half)).toEqual({
      retry: false,
      reason: 'retries-exhausted',
    });
  });
});
