import { describe, expect, it } from 'vitest';
import { giveUp } from '../../../src/client/describe.js';
import { DEFAULT_RETRY_POLICY } from '../../../src/client/retry.js';
import { ApiError, RateLimitError } from '../../../src/errors.js';

describe('giveUp', () => {
  it('keeps Retry-After in seconds when the rate-limit budget runs out', () => {
    const answer = new ApiError(
      429,
      { code: 'rate_limit_exceeded', message: 'slow down' },
      { retryAfterSeconds: 7 },
    );
    const error = giveUp(
      answer,
      'rate-limit-budget',
      { method: 'GET', path: '/orders' },
      { retries: 0, rateLimitWaitedMs: 600_000, rateLimitWaits: 60 },
      DEFAULT_RETRY_POLICY,
    );
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfterSeconds).toBe(7);
    expect(error.message).toBe('still rate limited after 60 waits (600 s in all)');
  });
});
