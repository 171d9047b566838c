/**
 * HEAD is GET without a body (RFC 9110, 9.3.2): the same status and headers on every route
 * GET takes, and no key needed where GET needs none (liveness probes use it).
 */
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PREFIX } from '../../src/contract/contract.js';
import { startTestEmulator, type TestEmulator } from './helpers.js';

/** A HEAD request, with what came back as a body (which must be nothing): raw bytes, which `call` parses away. */
async function head(t: TestEmulator, path: string, key?: string) {
  const headers: Record<string, string> = key ? { authorization: `Bearer ${key}` } : {};
  const response = await request(`${t.emulator.url}${API_PREFIX}${path}`, { method: 'HEAD', headers });
  const bytes = Buffer.from(await response.body.arrayBuffer());
  return { status: response.statusCode, headers: response.headers, bytes: bytes.length };
}

describe('HEAD', () => {
  let t: TestEmulator;

  beforeAll(async () => {
    t = await startTestEmulator();
  });
  afterAll(() => t.emulator.close());

  it.each(['/health', '/status'])('HEAD %s answers 200 without a key and without a body', async (path) => {
    const answer = await head(t, path);
    expect(answer.status).toBe(200);
    expect(answer.bytes).toBe(0);
    expect(answer.headers['content-type']).toMatch(/^application\/json/);
    expect(answer.headers['x-ratelimit-limit']).toBeUndefined();
  });

  it('answers an authenticated route as GET would, headers included, without the body', async () => {
    const answer = await head(t, '/orders?limit=2', t.emulator.keys.live);
    expect(answer.status).toBe(200);
    expect(answer.bytes).toBe(0);
    expect(answer.headers['x-ratelimit-limit']).toBe('80');
    expect(Number(answer.headers['content-length'])).toBeGreaterThan(0);
    expect(t.emulator.requests({ method: 'HEAD' }).at(-1)?.route).toBe('HEAD /orders');
  });

  it('keeps the errors of GET: 401 without a key, 404 for an unknown id', async () => {
    expect((await head(t, '/orders')).status).toBe(401);
    expect((await head(t, '/orders/ord_nope', t.emulator.keys.live)).status).toBe(404);
    const missing = await head(t, '/products/prod_nope', t.emulator.keys.live);
    expect(missing.bytes).toBe(0);
  });

  it('changes nothing and spends no write quota', async () => {
    const products = t.emulator.store.products.size;
    expect((await head(t, '/products', t.emulator.keys.live)).status).toBe(200);
    expect(t.emulator.store.products.size).toBe(products);
    expect(t.emulator.writeQuotaUsed()).toBe(0);
  });
});
