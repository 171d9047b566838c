import { describe, expect, it } from 'vitest';
import { classifyNetworkError, flattenHeaders, interpretAnswer } from '../../../src/client/normalize.js';
import { ApiError, NetworkError, ProtocolError, QuotaError } from '../../../src/errors.js';

const URL = 'http://127.0.0.1:4010/rest/v1/orders';
const NOW = Date.parse('2025-03-01T18:00:00Z');
const json = { 'content-type': 'application/json' };

function errorOf(status: number, body: unknown, headers: Record<string, string> = json): Error {
  const result = interpretAnswer({ status, headers, text: JSON.stringify(body) }, URL, NOW);
  if (result.ok) throw new Error('expected an error');
  return result.error;
}

describe('interpretAnswer', () => {
  it('accepts any 2xx with a JSON body, or none', () => {
    const ok = interpretAnswer({ status: 201, headers: json, text: '{"id":"p_1"}' }, URL, NOW);
    expect(ok).toMatchObject({ ok: true, response: { status: 201, body: { id: 'p_1' } } });
    const empty = interpretAnswer({ status: 204, headers: {}, text: '' }, URL, NOW);
    expect(empty).toMatchObject({ ok: true, response: { status: 204, body: undefined } });
    const dated = interpretAnswer(
      { status: 200, headers: { date: 'Sat, 01 Mar 2025 18:00:00 GMT' }, text: '{}' },
      URL,
      NOW,
    );
    expect(dated.ok && dated.response.serverDate?.toISOString()).toBe('2025-03-01T18:00:00.000Z');
  });

  it('names status and content type when a 2xx is not JSON', () => {
    const result = interpretAnswer(
      { status: 200, headers: { 'content-type': 'text/html; charset=utf-8' }, text: '<html>' },
      URL,
      NOW,
    );
    expect(result.ok).toBe(false);
    const error = (result as { error: Error }).error;
    expect(error).toBeInstanceOf(ProtocolError);
    expect(error.message).toBe(
      `the service at ${URL} answered HTTP 200 with text/html, not JSON; check --base-url`,
    );
  });

  it('keeps status, type, code, message, param, Retry-After and request id, tolerating unknown fields', () => {
    const error = errorOf(
      409,
      {
        error: {
          type: 'invalid_request_error',
          code: 'brand_new_code',
          message: 'nope',
          param: 'x',
          extra: 1,
        },
      },
      { ...json, 'retry-after': '2', 'request-id': 'req_1' },
    );
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 409,
      type: 'invalid_request_error',
      code: 'brand_new_code',
      message: 'nope',
      param: 'x',
      retryAfterSeconds: 2,
      requestId: 'req_1',
    });
  });

  it('keeps 401 and 403 as ApiError for the CLI to map', () => {
    expect(errorOf(401, { error: { code: 'api_key_invalid', message: 'bad key' } })).toMatchObject({
      status: 401,
    });
    expect(errorOf(403, { error: { code: 'scope_missing', message: 'needs orders:read' } })).toBeInstanceOf(
      ApiError,
    );
  });

  it('turns write_quota_exceeded into QuotaError resetting at Retry-After, else next midnight UTC', () => {
    const body = { error: { type: 'rate_limit_error', code: 'write_quota_exceeded', message: 'quota used' } };
    const withHeader = errorOf(429, body, { ...json, 'retry-after': '3600' }) as QuotaError;
    expect(withHeader).toBeInstanceOf(QuotaError);
    expect(withHeader.resetsAt.toISOString()).toBe('2025-03-01T19:00:00.000Z');
    const without = errorOf(429, body) as QuotaError;
    expect(without.resetsAt.toISOString()).toBe('2025-03-02T00:00:00.000Z');
  });

  it('a Retry-After in whole seconds, rounded up by the service, resets on the whole second it names', () => {
    const body = { error: { type: 'rate_limit_error', code: 'write_quota_exceeded', message: 'quota used' } };
    // 0.755 s past 18:00: midnight is 21,599.245 s away, which the service sends as 21600.
    const result = interpretAnswer(
      { status: 429, headers: { ...json, 'retry-after': '21600' }, text: JSON.stringify(body) },
      URL,
      NOW + 755,
    );
    expect(!result.ok && (result.error as QuotaError).resetsAt.toISOString()).toBe(
      '2025-03-02T00:00:00.000Z',
    );
  });

  it('lets a non-JSON 5xx or 429 from a proxy stay retryable, and calls a 404 page a protocol error', () => {
    const html = { 'content-type': 'text/html' };
    const bad = interpretAnswer({ status: 502, headers: html, text: '<h1>Bad gateway</h1>' }, URL, NOW);
    expect(!bad.ok && bad.error).toBeInstanceOf(ApiError);
    expect(!bad.ok && (bad.error as ApiError).status).toBe(502);
    const page = interpretAnswer({ status: 404, headers: html, text: '<h1>Not found</h1>' }, URL, NOW);
    expect(!page.ok && page.error).toBeInstanceOf(ProtocolError);
    const moved = interpretAnswer({ status: 301, headers: { location: 'https://x/' }, text: '' }, URL, NOW);
    expect(!moved.ok && moved.error.message).toMatch(/redirect to https:\/\/x\//);
  });
});

describe('classifyNetworkError', () => {
  const origin = 'http://127.0.0.1:9';

  it('says a refused connection sent nothing and names the host', () => {
    const failure = classifyNetworkError(
      Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }),
      origin,
    );
    expect(failure.sent).toBe(false);
    expect(failure.error).toBeInstanceOf(NetworkError);
    expect(failure.error.message).toBe('could not connect to http://127.0.0.1:9 (connection refused)');
    expect(failure.error.code).toBe('ECONNREFUSED');
  });

  it('treats a reset or a read timeout as maybe sent', () => {
    for (const code of ['ECONNRESET', 'UND_ERR_SOCKET', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']) {
      const failure = classifyNetworkError(Object.assign(new Error('x'), { code }), origin);
      expect(failure.sent).toBe(true);
      expect(failure.error.message).toMatch(/^request to http:\/\/127\.0\.0\.1:9 failed \(/);
    }
  });

  it('finds the code on a cause and gives up on certificate problems', () => {
    const wrapped = new TypeError('fetch failed', { cause: { code: 'ENOTFOUND' } });
    expect(classifyNetworkError(wrapped, origin)).toMatchObject({ sent: false, fatal: false });
    const cert = Object.assign(new Error('self signed'), { code: 'DEPTH_ZERO_SELF_SIGNED_CERT' });
    expect(classifyNetworkError(cert, origin)).toMatchObject({ fatal: true, sent: false });
  });
});

describe('flattenHeaders', () => {
  it('lower-cases names and joins repeated values', () => {
    expect(flattenHeaders({ 'X-A': '1', 'set-cookie': ['a', 'b'], gone: undefined })).toEqual({
      'x-a': '1',
      'set-cookie': 'a, b',
    });
  });
});
