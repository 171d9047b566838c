import { describe, expect, it } from 'vitest';
import { ERROR_KINDS, errorJson } from '../../../src/cli/error-json.js';
import { describeError, EXIT, exitCodeFor } from '../../../src/cli/exit.js';
import {
  AmbiguousWriteError,
  ApiError,
  AuthError,
  CrawlInterrupted,
  DifferencesFound,
  Interrupted,
  NetworkError,
  PartialFailure,
  ProtocolError,
  QuotaError,
  RateLimitError,
  StillPending,
  SvcError,
  UsageError,
} from '../../../src/errors.js';
import { humanDuration } from '../../../src/output/duration.js';

const NOW = Date.parse('2026-11-10T20:47:30.000Z');

const api = (status: number, code?: string, message = 'refused', param?: string) =>
  new ApiError(status, { type: 'invalid_request_error', code, message, param });

describe('EXIT', () => {
  it('keeps the codes the guide promises', () => {
    expect(EXIT).toEqual({
      ok: 0,
      failed: 1,
      usage: 2,
      partial: 3,
      auth: 4,
      rateLimited: 5,
      differs: 6,
      pending: 8,
      sigint: 130,
      sigterm: 143,
    });
  });
});

describe('exitCodeFor', () => {
  it.each([
    ['UsageError', new UsageError('bad flag'), 2],
    ['AuthError', new AuthError('no key'), 4],
    ['DifferencesFound', new DifferencesFound('2 rows differ from the store'), 6],
    ['ApiError 401', api(401, 'api_key_invalid'), 4],
    ['ApiError 403', api(403, 'scope_missing'), 4],
    ['ApiError 429 rate limit', api(429, 'rate_limit_exceeded'), 5],
    ['ApiError 429 write quota', api(429, 'write_quota_exceeded'), 5],
    ['ApiError 400', api(400, 'parameter_invalid'), 1],
    ['ApiError 404', api(404, 'resource_missing'), 1],
    ['ApiError 409', api(409, 'invalid_state'), 1],
    ['ApiError 412', api(412, 'precondition_failed'), 1],
    ['ApiError 422', api(422, 'validation_failed'), 1],
    ['ApiError 500', api(500, 'internal_error'), 1],
    ['ApiError 503', api(503, 'service_unavailable'), 1],
    ['QuotaError', new QuotaError('write quota exhausted', new Date(NOW)), 5],
    ['RateLimitError', new RateLimitError('rate limited', 3), 5],
    ['PartialFailure', new PartialFailure('2 of 10 failed'), 3],
    ['StillPending', new StillPending('still processing'), 8],
    ['Interrupted SIGINT', new Interrupted('SIGINT'), 130],
    ['Interrupted SIGTERM', new Interrupted('SIGTERM'), 143],
    ['NetworkError', new NetworkError('ECONNREFUSED', 'ECONNREFUSED'), 1],
    ['ProtocolError', new ProtocolError('not JSON'), 1],
    ['AmbiguousWriteError', new AmbiguousWriteError('unknown outcome'), 1],
    ['a plain Error', new Error('oops'), 1],
    ['a thrown string', 'oops', 1],
  ])('%s → %i', (_name, error, code) => {
    expect(exitCodeFor(error)).toBe(code);
  });

  it.each([
    [new UsageError('x'), 2],
    [api(401), 4],
    [api(429, 'rate_limit_exceeded'), 5],
    [api(500), 1],
    [new Interrupted('SIGINT'), 130],
    [new Interrupted('SIGTERM'), 143],
    [new QuotaError('q', new Date(NOW)), 5],
  ])('a CrawlInterrupted takes the code of its cause (%s)', (cause, code) => {
    expect(exitCodeFor(new CrawlInterrupted(3, cause))).toBe(code);
  });
});

describe('describeError', () => {
  const oneLine = (error: unknown) => {
    const line = describeError(error, NOW);
    expect(line).not.toMatch(/[\r\n]/);
    expect(line.length).toBeGreaterThan(0);
    return line;
  };

  it.each([
    new UsageError('bad flag', ['line 3: bad quantity', 'line 4: bad price']),
    new AuthError('no key'),
    api(401, 'api_key_invalid'),
    api(403, 'scope_missing'),
    api(404, 'resource_missing'),
    api(429, 'rate_limit_exceeded'),
    api(500),
    new QuotaError('write quota exhausted', new Date(NOW + 3_600_000)),
    new RateLimitError('rate limited'),
    new NetworkError('connection refused'),
    new ProtocolError('not JSON'),
    new AmbiguousWriteError('unknown outcome'),
    new PartialFailure('2 of 10 failed'),
    new StillPending('still processing'),
    new Interrupted('SIGINT'),
    new CrawlInterrupted(2, api(500)),
    new Error('oops'),
    'oops',
  ])('is one line for %s', (error) => {
    oneLine(error);
  });

  it('does not put usage details on the line (they go below it)', () => {
    expect(oneLine(new UsageError('bad file', ['line 3: bad quantity']))).toBe('bad file');
  });

  it('names the status, code, message and param of an API error', () => {
    expect(oneLine(api(422, 'validation_failed', 'title is too long', 'title'))).toBe(
      'HTTP 422 validation_failed: title is too long (title)',
    );
  });

  it('says what to do next for a bad or missing key', () => {
    for (const code of ['api_key_invalid', 'api_key_missing']) {
      const line = oneLine(api(401, code, 'Invalid API key'));
      expect(line).toMatch(/^HTTP 401 /);
      expect(line).toContain('svc auth status');
      expect(line).toContain('svc auth login');
    }
  });

  it('says what to do next for a 401 without a known code', () => {
    const line = oneLine(api(401, undefined, 'Unauthorized'));
    expect(line).toContain('svc auth status');
  });

  it('says to use a key with the scope for scope_missing', () => {
    const line = oneLine(api(403, 'scope_missing', 'This key lacks orders:read'));
    expect(line).toContain('This key lacks orders:read');
    expect(line).toMatch(/key that has this scope/);
  });

  it('gives next steps for plan_not_eligible, rate limits, missing resources and 5xx', () => {
    expect(oneLine(api(403, 'plan_not_eligible'))).toMatch(/renew it in the dashboard/);
    expect(oneLine(api(429, 'rate_limit_exceeded'))).toMatch(/wait a moment and run again/);
    expect(oneLine(api(404, 'resource_missing'))).toMatch(/check the id/);
    expect(oneLine(api(502, undefined, 'Bad gateway'))).toMatch(/try again later/);
  });

  it('fits the advice to the failure: stale precondition, reused key, lost cursor, other 403s', () => {
    expect(oneLine(api(412, 'precondition_failed'))).toMatch(/changed since that time/);
    expect(oneLine(api(409, 'idempotency_key_reused'))).toMatch(/new key/);
    expect(oneLine(api(400, 'parameter_invalid', 'Unreadable cursor', 'cursor'))).toMatch(
      /start the list again/,
    );
    expect(oneLine(api(403, 'some_new_code'))).toMatch(/key that is allowed/);
    expect(oneLine(api(500))).not.toMatch(/after retries/);
  });

  it("uses a 404's own next step when its request told more", () => {
    const error = api(404, 'resource_missing', 'Unrecognized request URL');
    error.nextStep = 'GET /nope is not a route of the API: check the path';
    expect(oneLine(error)).toBe(
      'HTTP 404 resource_missing: Unrecognized request URL; GET /nope is not a route of the API: check the path',
    );
  });

  it('says when to run again after a rate limit, and to check the address when nothing connected', () => {
    expect(oneLine(new RateLimitError('rate limited: the service asks to wait 300 s', 300))).toMatch(
      /run again in 5m 0s$/,
    );
    expect(
      oneLine(new NetworkError('could not connect to http://x (connection refused)', 'ECONNREFUSED')),
    ).toMatch(/check the service address/);
    expect(oneLine(new NetworkError('request to http://x failed (connection reset)', 'ECONNRESET'))).toBe(
      'request to http://x failed (connection reset)',
    );
  });

  it('falls back to the status when the service sent no message', () => {
    expect(oneLine(new ApiError(500, {}))).toMatch(/^HTTP 500: the service answered HTTP 500/);
  });

  it('says when the write quota resets, in UTC and from now', () => {
    const resetsAt = new Date('2026-11-11T00:00:00.000Z');
    const line = oneLine(new QuotaError('daily write quota exhausted', resetsAt));
    expect(line).toBe('daily write quota exhausted; it resets at 2026-11-11T00:00:00.000Z (in 3h 12m)');
  });

  it('says how far a crawl got', () => {
    expect(oneLine(new CrawlInterrupted(1, new NetworkError('connection reset')))).toBe(
      'connection reset (stopped after 1 item)',
    );
    expect(oneLine(new CrawlInterrupted(250, api(500, undefined, 'boom')))).toMatch(
      /\(stopped after 250 items\)$/,
    );
  });

  it('says the message of any error svc raises on purpose (every kind shares one base class)', () => {
    const kinds = [
      new UsageError('bad flag'),
      new AuthError('no key'),
      new PartialFailure('2 SKUs failed'),
      new StillPending('still pending'),
      new ProtocolError('unexpected answer'),
      new AmbiguousWriteError('may have been applied'),
      new Interrupted('SIGINT'),
    ];
    for (const error of kinds) {
      expect(error).toBeInstanceOf(SvcError);
      expect(oneLine(error)).toBe(error.message);
    }
  });

  it('never shows a stack trace for an unexpected error and points to --debug', () => {
    const error = new Error('oops');
    const line = oneLine(error);
    expect(line).toBe('unexpected error: oops (run again with --debug for details)');
    expect(line).not.toContain('    at ');
  });
});

describe('errorJson', () => {
  it("an ApiError: the stable code, the line, the exit code, and the service's own code beside", () => {
    expect(errorJson(api(404, 'resource_missing', 'No such order', 'id'))).toEqual({
      error: {
        code: 'not_found',
        message: 'HTTP 404 resource_missing: No such order',
        exit_code: 1,
        status: 404,
        service_code: 'resource_missing',
        param: 'id',
        hint: 'check the id or the path',
      },
    });
  });

  it('never holds an internal class name', () => {
    const usage = errorJson(new UsageError('bad flag')).error;
    expect(usage).toEqual({ code: 'usage', message: 'bad flag', exit_code: 2 });
    expect(JSON.stringify(errorJson(new PartialFailure('2 SKUs failed')))).not.toMatch(/PartialFailure|type/);
    expect(errorJson(new AuthError('malformed key', 'api_key_malformed')).error).toEqual({
      code: 'auth_invalid',
      message: 'malformed key',
      exit_code: 4,
      detail_code: 'api_key_malformed',
    });
  });

  it.each([
    [new UsageError('bad', [], [{ line: 3, message: 'x' }]), 'input_invalid', 2],
    [new AuthError('no key', 'api_key_missing'), 'auth_missing', 4],
    [api(403, 'scope_missing', 'needs orders:write'), 'scope_missing', 4],
    [api(403, 'plan_not_eligible', 'lapsed'), 'forbidden', 4],
    [api(409, 'listing_exists', 'exists'), 'conflict', 1],
    [api(422, 'validation_failed', 'bad'), 'invalid_request', 1],
    [api(503, 'service_unavailable', 'down'), 'service', 1],
    [new RateLimitError('slow down', 3), 'rate_limited', 5],
    [new QuotaError('quota', new Date('2026-11-11T00:00:00Z')), 'quota_exhausted', 5],
    [new PartialFailure('2 failed'), 'partial_failure', 3],
    [new StillPending('pending'), 'timeout', 8],
    [new Interrupted('SIGTERM'), 'interrupted', 143],
    [new NetworkError('reset', 'ECONNRESET'), 'network', 1],
    [new Error('oops'), 'internal', 1],
  ])('%s is %s, exit %i', (error, code, exitCode) => {
    expect(errorJson(error).error).toMatchObject({ code, exit_code: exitCode });
    expect(ERROR_KINDS).toContain(code);
  });

  it('keeps the count of a crawl that failed midway', () => {
    expect(errorJson(new CrawlInterrupted(4, new NetworkError('reset', 'ECONNRESET')))).toEqual({
      error: {
        code: 'network',
        message: 'reset (stopped after 4 items)',
        exit_code: 1,
        detail_code: 'ECONNRESET',
        written: 4,
      },
    });
  });
});

describe('humanDuration', () => {
  it.each([
    [0, '0s'],
    [-5000, '0s'],
    [499, '0s'],
    [500, '1s'],
    [45_000, '45s'],
    [59_999, '1m 0s'],
    [60_000, '1m 0s'],
    [125_000, '2m 5s'],
    [3_600_000, '1h 0m'],
    [3 * 3_600_000 + 12 * 60_000 + 30_000, '3h 12m'],
    [26 * 3_600_000, '26h 0m'],
  ])('%i ms → %s', (ms, text) => {
    expect(humanDuration(ms)).toBe(text);
  });
});
