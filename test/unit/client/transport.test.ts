/** The transport over real HTTP against a scripted local server; time is virtual, so no test waits. */
import { afterEach, describe, expect, it } from 'vitest';
import { ApiClient } from '../../../src/client/client.js';
import type { TransportOptions } from '../../../src/client/transport.js';
import { buildUrl } from '../../../src/client/url.js';
import {
  AmbiguousWriteError,
  ApiError,
  AuthError,
  NetworkError,
  ProtocolError,
  QuotaError,
  RateLimitError,
  UsageError,
} from '../../../src/errors.js';
import { closedPort } from '../../helpers/loopback-server.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { apiError, type Reply, type ScriptServer, scriptServer } from './script-server.js';

const KEY = 'svc_test_0123456789abcdefWXYZ';
const ok: Reply = { status: 200, json: { ok: true } };

let server: ScriptServer | undefined;
let client: ApiClient | undefined;

afterEach(async () => {
  await client?.close();
  await server?.close();
  client = undefined;
  server = undefined;
});

/** A client on virtual time: sleeps advance the clock at once and are recorded. */
function clientFor(base: string, extra: Partial<TransportOptions> = {}) {
  let time = Date.parse('2025-03-01T12:00:00.250Z');
  const sleeps: number[] = [];
  const notices: string[] = [];
  const debug: string[] = [];
  client = new ApiClient({
    baseUrl: base,
    apiKey: KEY,
    userAgent: 'svc/9.9.9',
    now: () => time,
    sleep: async (ms, signal) => {
      signal?.throwIfAborted();
      sleeps.push(ms);
      time += ms;
    },
    random: () => 0.5,
    notice: (line) => notices.push(line),
    debug: (line) => debug.push(line),
    ...extra,
  });
  return { client, sleeps, notices, debug };
}

async function serve(script: Parameters<typeof scriptServer>[0]): Promise<ScriptServer> {
  server = await scriptServer(script);
  return server;
}

describe('buildUrl', () => {
  it('joins base, prefix, path and query, tolerating slashes and a base that has the prefix', () => {
    expect(buildUrl('http://h:1', '/orders')).toBe('http://h:1/rest/v1/orders');
    expect(buildUrl('http://h:1//', 'orders', { a: 1, b: undefined })).toBe('http://h:1/rest/v1/orders?a=1');
    expect(buildUrl('https://h/rest/v1/', '/orders?x=1', { y: 'a b' })).toBe(
      'https://h/rest/v1/orders?x=1&y=a+b',
    );
    expect(buildUrl('https://h/svc', '/inventory/SKU%2F1')).toBe('https://h/svc/rest/v1/inventory/SKU%2F1');
  });

  it('refuses a base URL that is not http or https', () => {
    expect(() => buildUrl('localhost:4010', '/orders')).toThrow(UsageError);
    expect(() => buildUrl('ftp://h', '/orders')).toThrow(/http:\/\/ or https:\/\//);
  });
});

describe('transport: requests', () => {
  it('joins the URL, skips empty query values and sends the standard headers', async () => {
    const srv = await serve([
      { status: 200, json: { data: 1 }, headers: { date: 'Sat, 01 Mar 2025 12:00:00 GMT' } },
    ]);
    const { client } = clientFor(`${srv.url}/`);
    const response = await client.request({
      method: 'GET',
      path: '/orders',
      query: { status: 'shipped', cursor: undefined, channel: null, limit: 5, open: true },
    });
    expect(response).toMatchObject({ status: 200, body: { data: 1 } });
    expect(client.lastServerDate?.toISOString()).toBe('2025-03-01T12:00:00.000Z');
    const [seen] = srv.seen;
    expect(seen.url).toBe('/rest/v1/orders?status=shipped&limit=5&open=true');
    expect(seen.headers).toMatchObject({
      authorization: `Bearer ${KEY}`,
      'user-agent': 'svc/9.9.9',
      accept: 'application/json',
    });
    expect(seen.headers['idempotency-key']).toBeUndefined();
  });

  it('sends JSON bodies with an Idempotency-Key on writes, and none of the key on unauthenticated calls', async () => {
    const srv = await serve([{ status: 201, json: { id: 'p_1' } }, { status: 204 }, ok]);
    const { client } = clientFor(srv.url);
    await client.request({ method: 'POST', path: '/products', body: { title: 'Mug' } });
    const deleted = await client.request({
      method: 'DELETE',
      path: '/products/p_1',
      idempotencyKey: 'mine-1',
    });
    await client.request({ method: 'GET', path: '/status', auth: false });
    expect(srv.seen[0].headers['content-type']).toBe('application/json');
    expect(JSON.parse(srv.seen[0].body)).toEqual({ title: 'Mug' });
    expect(srv.seen[0].headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
    expect(srv.seen[1].headers['idempotency-key']).toBe('mine-1');
    expect(deleted.body).toBeUndefined();
    expect(srv.seen[2].headers.authorization).toBeUndefined();
  });

  it('refuses a malformed key before sending anything', async () => {
    const srv = await serve([ok]);
    const { client } = clientFor(srv.url, { apiKey: 'sk_live_nope' });
    await expect(client.request({ method: 'GET', path: '/orders' })).rejects.toBeInstanceOf(AuthError);
    expect(srv.seen).toHaveLength(0);
  });

  it('calls a non-JSON answer a protocol error naming status and content type', async () => {
    const srv = await serve([
      { status: 200, headers: { 'content-type': 'text/html' }, text: '<html></html>' },
    ]);
    const { client } = clientFor(srv.url);
    await expect(client.request({ method: 'GET', path: '/orders' })).rejects.toThrow(
      new ProtocolError(
        `the service at ${srv.url}/rest/v1/orders answered HTTP 200 with text/html, not JSON; check --base-url`,
      ),
    );
  });
});

describe('transport: retries', () => {
  it('retries a 503 after its Retry-After, reusing the Idempotency-Key', async () => {
    const srv = await serve([
      apiError(503, 'service_unavailable', { 'retry-after': '2' }),
      apiError(500, 'internal_error'),
      ok,
    ]);
    const { client, sleeps, notices } = clientFor(srv.url);
    await client.request({ method: 'POST', path: '/inventory/batch', body: { items: [] } });
    expect(srv.seen).toHaveLength(3);
    const keys = new Set(srv.seen.map((r) => r.headers['idempotency-key']));
    expect(keys.size).toBe(1);
    // Full jitter with random() = 0.5: half of 1 s before the second retry.
    expect(sleeps).toEqual([2000, 500]);
    expect(notices).toEqual([
      'HTTP 503 service_unavailable; retry 1/5 in 2 s',
      'HTTP 500 internal_error; retry 2/5 in 0.5 s',
    ]);
    expect(client.stats).toMatchObject({ requests: 3, retries: 2, rateLimited: 0 });
  });

  it.each([400, 401, 403, 404, 409, 412, 422])('never retries HTTP %i', async (status) => {
    const srv = await serve([apiError(status, 'some_code'), ok]);
    const { client } = clientFor(srv.url);
    const failure = client.request({ method: 'GET', path: '/orders' });
    await expect(failure).rejects.toBeInstanceOf(ApiError);
    await expect(failure).rejects.toMatchObject({ status, code: 'some_code' });
    expect(srv.seen).toHaveLength(1);
  });

  it('stops after maxRetries', async () => {
    const srv = await serve(() => apiError(500, 'internal_error'));
    const { client } = clientFor(srv.url, { maxRetries: 2 });
    await expect(client.request({ method: 'GET', path: '/orders' })).rejects.toMatchObject({ status: 500 });
    expect(srv.seen).toHaveLength(3);
  });

  it('does not count 429 rate_limit_exceeded waits against maxRetries', async () => {
    const limited = apiError(429, 'rate_limit_exceeded', { 'retry-after': '1' });
    const srv = await serve([limited, limited, limited, apiError(502, 'bad_gateway'), ok]);
    const { client, notices } = clientFor(srv.url, { maxRetries: 1 });
    await client.request({ method: 'PATCH', path: '/inventory/SKU-1', body: { quantity: 1 } });
    expect(srv.seen).toHaveLength(5);
    expect(new Set(srv.seen.map((r) => r.headers['idempotency-key'])).size).toBe(1);
    expect(notices.filter((n) => n.startsWith('rate limited; waiting 1 s'))).toHaveLength(3);
    expect(client.stats).toMatchObject({ requests: 5, retries: 1, rateLimited: 3 });
    expect(client.stats.waitedMs).toBeGreaterThanOrEqual(3000);
  });

  it('fails at once on a Retry-After beyond 120 s', async () => {
    const srv = await serve([apiError(429, 'rate_limit_exceeded', { 'retry-after': '600' })]);
    const { client } = clientFor(srv.url);
    const failure = client.request({ method: 'GET', path: '/orders' });
    await expect(failure).rejects.toBeInstanceOf(RateLimitError);
    await expect(failure).rejects.toMatchObject({ retryAfterSeconds: 600 });
  });

  it('never waits for write_quota_exceeded', async () => {
    const srv = await serve([apiError(429, 'write_quota_exceeded', { 'retry-after': '3600' }), ok]);
    const { client, sleeps } = clientFor(srv.url);
    const failure = client.request({ method: 'PATCH', path: '/inventory/SKU-1', body: { quantity: 1 } });
    await expect(failure).rejects.toBeInstanceOf(QuotaError);
    await expect(failure).rejects.toMatchObject({
      // The clock reads 12:00:00.250; Retry-After counts whole seconds, so the reset is 13:00:00.
      resetsAt: new Date(Date.parse('2025-03-01T13:00:00.000Z')),
    });
    expect(srv.seen).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });
});

describe('transport: network failures and ambiguity', () => {
  it('retries a refused connection even for a write, then names the host', async () => {
    const port = await closedPort();
    const { client, sleeps } = clientFor(`http://127.0.0.1:${port}`, { maxRetries: 2 });
    const failure = client.request({ method: 'POST', path: '/orders/o_1/fulfillment', body: {} });
    await expect(failure).rejects.toBeInstanceOf(NetworkError);
    await expect(failure).rejects.toThrow(
      `could not connect to http://127.0.0.1:${port} (connection refused), after 2 retries`,
    );
    expect(sleeps).toHaveLength(2);
  });

  it('retries a dropped connection for a GET and a repeatable write, with the same key', async () => {
    const srv = await serve(['drop', ok, 'drop', ok]);
    const { client } = clientFor(srv.url);
    await client.request({ method: 'GET', path: '/orders' });
    await client.request({ method: 'PATCH', path: '/inventory/SKU-1', body: { quantity: 3 } });
    expect(srv.seen).toHaveLength(4);
    expect(srv.seen[2].headers['idempotency-key']).toBe(srv.seen[3].headers['idempotency-key']);
  });

  it("counts the write quota the service accepted: each write once, a replay of its own lost attempt too, never another run's replay, a refusal or a read", async () => {
    const replayed = { 'idempotent-replayed': 'true' };
    const srv = await serve([
      ok,
      'drop',
      { status: 200, headers: replayed, json: {} },
      { status: 200, headers: replayed, json: {} },
      apiError(422, 'validation_failed'),
      ok,
      ok,
    ]);
    const dir = tempDir('svc-quota-count-');
    const { client } = clientFor(srv.url, {
      apiKey: 'svc_live_0123456789abcdefWXYZ',
      sharedPacing: { dir, pacing: false },
    });
    await client.request({ method: 'POST', path: '/inventory/batch', body: { items: [] } });
    await client.request({ method: 'PATCH', path: '/inventory/SKU-1', body: { quantity: 3 } });
    await client.request({
      method: 'POST',
      path: '/products/batch',
      body: {},
      idempotencyKey: 'earlier-run',
    });
    await expect(client.request({ method: 'POST', path: '/inventory/batch', body: {} })).rejects.toThrow();
    await client.request({ method: 'GET', path: '/products' });
    await client.request({ method: 'POST', path: '/orders/ord_1/fulfillment', body: {} });
    expect(srv.seen).toHaveLength(7);
    expect(await client.quotaSpent()).toMatchObject({
      day: '2025-03-01',
      spent: 2,
      countedOn: 'this machine',
    });
  });

  it('raises AmbiguousWriteError when a write that is unsafe to repeat loses its answer', async () => {
    const srv = await serve(['drop', ok]);
    const { client } = clientFor(srv.url);
    const failure = client.request({
      method: 'POST',
      path: '/orders/o_1/fulfillment',
      body: {},
      repeatable: false,
    });
    await expect(failure).rejects.toBeInstanceOf(AmbiguousWriteError);
    await expect(failure).rejects.toThrow(/POST \/orders\/o_1\/fulfillment may or may not have been applied/);
    expect(srv.seen).toHaveLength(1);
  });

  it('treats a read timeout like a dropped answer', async () => {
    const srv = await serve(['hang', ok, 'hang']);
    const { client } = clientFor(srv.url, { requestTimeoutMs: 150 });
    await client.request({ method: 'GET', path: '/orders' });
    const failure = client.request({ method: 'POST', path: '/listings', body: {} });
    await expect(failure).rejects.toBeInstanceOf(AmbiguousWriteError);
    expect(srv.seen).toHaveLength(3);
  });

  it('stops when its signal aborts', async () => {
    const srv = await serve(['hang']);
    const { client } = clientFor(srv.url);
    const controller = new AbortController();
    const failure = client.request({ method: 'GET', path: '/orders', signal: controller.signal });
    setTimeout(() => controller.abort(new Error('interrupted')), 50);
    await expect(failure).rejects.toThrow('interrupted');
  });
});

describe('transport: debug lines', () => {
  it('shows each request and answer with the key masked and secrets redacted', async () => {
    const headers = { 'x-ratelimit-limit': '80', 'x-ratelimit-remaining': '79', 'x-ratelimit-reset': '0' };
    const srv = await serve([{ status: 201, headers, json: { id: 'we_1', secret: 'whsec_s3cr3t' } }]);
    const { client, debug } = clientFor(srv.url);
    await client.request({
      method: 'POST',
      path: '/webhook_endpoints',
      body: { url: 'https://x', secret: 'nope' },
    });
    const text = debug.join('\n');
    expect(debug[0]).toMatch(
      new RegExp(`^→ POST ${srv.url}/rest/v1/webhook_endpoints idem=[0-9a-f-]{36} auth=svc_test_…WXYZ$`),
    );
    expect(text).toMatch(/← 201 in \d+ ms, remaining 79\/80/);
    expect(text).not.toContain(KEY);
    expect(text).not.toContain('s3cr3t');
    expect(text).not.toContain('nope');
  });
});
