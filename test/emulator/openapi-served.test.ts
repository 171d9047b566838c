/** GET /rest/v1/openapi.json: the committed document, with no key, as HEAD too. */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../helpers/service-api.js';
import { startTestEmulator, type TestEmulator } from './helpers.js';
import { OPENAPI_PATH } from './openapi-check.js';

describe('the served OpenAPI document', () => {
  let t: TestEmulator;

  beforeAll(async () => {
    t = await startTestEmulator();
  });
  afterAll(() => t.emulator.close());

  it('is docs/openapi.json, served without a key and without spending the bucket', async () => {
    const answer = await call(t.emulator, 'GET', '/openapi.json', { key: null });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toMatch(/^application\/json/);
    expect(answer.headers['x-ratelimit-limit']).toBeUndefined();
    expect(answer.body).toEqual(JSON.parse(readFileSync(OPENAPI_PATH, 'utf8')));
    expect(answer.body.paths['/orders'].get.operationId).toBe('listOrders');
  });

  it('answers HEAD, and a key sent along changes nothing', async () => {
    const head = await call(t.emulator, 'HEAD', '/openapi.json', { key: null });
    expect(head.status).toBe(200);
    expect(head.body).toBeUndefined();
    expect((await call(t.emulator, 'GET', '/openapi.json')).status).toBe(200);
  });
});
