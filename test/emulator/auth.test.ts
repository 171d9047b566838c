import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { API_KEY_PATTERN } from '../../src/contract/contract.js';
import { call, get } from '../helpers/service-api.js';
import { startTestEmulator, type TestEmulator } from './helpers.js';

const RATE_HEADERS = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'];

describe('authentication, scopes, plan and the order of checks', () => {
  let t: TestEmulator;
  let sku: string;

  beforeEach(async () => {
    if (!t) t = await startTestEmulator({ bucket: 10, drainPerSecond: 5 });
    t.emulator.reset();
    sku = t.emulator.store.allSkus()[0];
  });
  afterAll(() => t.emulator.close());

  it('makes five well-formed, distinct keys with the expected modes', () => {
    const keys = Object.values(t.emulator.keys);
    expect(new Set(keys).size).toBe(5);
    for (const key of keys) expect(key).toMatch(API_KEY_PATTERN);
    expect(t.emulator.keys.test.startsWith('svc_test_')).toBe(true);
    for (const name of ['live', 'read_only', 'trial', 'lapsed'] as const) {
      expect(t.emulator.keys[name].startsWith('svc_live_')).toBe(true);
    }
  });

  it('answers 401 api_key_missing without a key, with no rate-limit headers', async () => {
    const answer = await get(t.emulator, '/products', null);
    expect(answer.status).toBe(401);
    expect(answer.body.error).toMatchObject({ type: 'authentication_error', code: 'api_key_missing' });
    for (const name of RATE_HEADERS) expect(answer.headers[name]).toBeUndefined();
  });

  it.each([
    ['a malformed key', 'Bearer sk_live_123'],
    ['an unknown key', 'Bearer svc_live_doesnotexist000000000000'],
    ['another scheme', 'Basic c3ZjOnNlY3JldA=='],
  ])('answers 401 api_key_invalid for %s', async (_label, authorization) => {
    const answer = await call(t.emulator, 'GET', '/products', { key: null, headers: { authorization } });
    expect(answer.status).toBe(401);
    expect(answer.body.error.code).toBe('api_key_invalid');
    for (const name of RATE_HEADERS) expect(answer.headers[name]).toBeUndefined();
  });

  it('refuses a revoked key at once', async () => {
    const key = t.emulator.createKey();
    expect((await get(t.emulator, '/products?limit=1', key)).status).toBe(200);
    t.emulator.revokeKey(key);
    const answer = await get(t.emulator, '/products?limit=1', key);
    expect(answer.status).toBe(401);
    expect(answer.body.error.code).toBe('api_key_invalid');
  });

  it('serves /status and /health without a key and without rate-limit headers, even with a bad key', async () => {
    for (const path of ['/status', '/health']) {
      for (const key of [null, 'svc_live_bogus']) {
        const answer = await get(t.emulator, path, key);
        expect(answer.status).toBe(200);
        for (const name of RATE_HEADERS) expect(answer.headers[name]).toBeUndefined();
      }
    }
  });

  it.each([
    ['GET', '/events', 'events:read'],
    ['GET', '/webhook_endpoints', 'webhooks:manage'],
    ['PATCH', '/inventory/{sku}', 'inventory:write'],
  ] as const)('answers 403 scope_missing naming the scope for %s %s', async (method, path, scope) => {
    const answer = await call(t.emulator, method, path.replace('{sku}', encodeURIComponent(sku)), {
      key: t.emulator.keys.read_only,
      body: method === 'PATCH' ? { quantity: 1 } : undefined,
    });
    expect(answer.status).toBe(403);
    expect(answer.body.error).toMatchObject({ type: 'authentication_error', code: 'scope_missing' });
    expect(answer.body.error.message).toContain(scope);
    expect(answer.headers['x-ratelimit-limit']).toBe('10');
  });

  it('lets the read-only key read products and orders (buyer data included)', async () => {
    const orders = await get(t.emulator, '/orders?limit=1', t.emulator.keys.read_only);
    expect(orders.status).toBe(200);
    expect(orders.body.data[0].buyer.address.line1).toEqual(expect.any(String));
    expect((await get(t.emulator, '/products?limit=1', t.emulator.keys.read_only)).status).toBe(200);
  });

  it('answers 403 permission_error plan_not_eligible for the lapsed key', async () => {
    const answer = await get(t.emulator, '/products', t.emulator.keys.lapsed);
    expect(answer.status).toBe(403);
    expect(answer.body.error).toMatchObject({ type: 'permission_error', code: 'plan_not_eligible' });
  });

  it('checks authentication before the route: unknown path without a key is 401', async () => {
    expect((await get(t.emulator, '/no/such/path', null)).status).toBe(401);
    const answer = await get(t.emulator, '/no/such/path');
    expect(answer.status).toBe(404);
    expect(answer.body.error).toMatchObject({ type: 'invalid_request_error', code: 'resource_missing' });
  });

  it('checks the rate limit before the route: a full bucket makes an unknown path 429', async () => {
    for (let index = 0; index < 10; index++) await get(t.emulator, '/health');
    for (let index = 0; index < 10; index++) await get(t.emulator, '/no/such/path');
    const answer = await get(t.emulator, '/no/such/path');
    expect(answer.status).toBe(429);
    expect(answer.body.error.code).toBe('rate_limit_exceeded');
  });

  it('checks the route before the scope, the scope before the plan, and both before the body', async () => {
    const readOnly = t.emulator.keys.read_only;
    expect((await get(t.emulator, '/nowhere', readOnly)).status).toBe(404);
    const lapsedNarrow = t.emulator.createKey({ scopes: ['products:read'], planActive: false });
    const scopeFirst = await call(t.emulator, 'PATCH', `/inventory/${encodeURIComponent(sku)}`, {
      key: lapsedNarrow,
      raw: 'not json',
    });
    expect(scopeFirst.body.error.code).toBe('scope_missing');
    const planFirst = await call(t.emulator, 'PATCH', `/inventory/${encodeURIComponent(sku)}`, {
      key: t.emulator.keys.lapsed,
      raw: 'not json',
    });
    expect(planFirst.body.error.code).toBe('plan_not_eligible');
    const bodyLast = await call(t.emulator, 'PATCH', `/inventory/${encodeURIComponent(sku)}`, {
      raw: 'not json',
    });
    expect(bodyLast.status).toBe(400);
    expect(bodyLast.body.error.code).toBe('body_invalid');
  });

  it('sends Request-Id and a Date header from the emulator clock', async () => {
    const answer = await get(t.emulator, '/products?limit=1');
    expect(answer.headers['request-id']).toMatch(/^req_[0-9a-f]+$/);
    expect(Date.parse(answer.headers.date)).toBe(Math.floor(t.clock.now() / 1000) * 1000);
    t.clock.advance(3_600_000);
    const later = await get(t.emulator, '/health', null);
    expect(Date.parse(later.headers.date)).toBe(Math.floor(t.clock.now() / 1000) * 1000);
  });

  it('answers 404 for a known path with an unsupported method', async () => {
    const answer = await call(t.emulator, 'PUT', '/products', { body: {} });
    expect(answer.status).toBe(404);
    expect(answer.body.error.code).toBe('resource_missing');
  });
});
