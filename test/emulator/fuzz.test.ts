/**
 * Tolerant under fuzzing: a bounded, seeded run of malformed and odd requests to every
 * operation (wrong types and limits in queries, bodies of every JSON kind, declared types that
 * are not JSON, odd ids and keys, methods the API does not take) gets no 5xx, every error comes
 * in the `{error: {type, code, message, param?}}` envelope, and every answer to an operation of
 * docs/openapi.json is one the document describes.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_OPERATIONS, type ApiOperation } from '../../src/contract/operations.js';
import { call } from '../helpers/service-api.js';
import { startTestEmulator, type TestEmulator } from './helpers.js';
import { OpenApiCheck } from './openapi-check.js';

const ROUNDS_PER_OPERATION = 25;
/** The runs with and without Idempotency-Key on every write: shorter, as the mixed run covers the rest. */
const ROUNDS_PER_KEY_MODE = 10;

/** A small seeded generator (mulberry32), so a failure repeats. */
function generator(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
  return { next, pick };
}

const ODD_STRINGS = [
  '',
  ' ',
  '0',
  '-1',
  '1e309',
  'null',
  'ü',
  '%',
  '../x',
  'a'.repeat(300),
  '2025-13-45',
  '\u0000',
];
const ODD_OPTIONS: Record<string, string>[] = [
  { '': '' },
  { '': 'x' },
  { size: '' },
  { ' ': 'S' },
  {},
  { size: 'S', color: 'Red' },
];
const ODD_VALUES: unknown[] = [
  null,
  true,
  0,
  -1,
  1.5,
  2 ** 53,
  'x',
  '',
  [],
  {},
  [1, 'a'],
  { a: { b: null } },
];

describe('fuzzing every operation', () => {
  let t: TestEmulator;
  const check = new OpenApiCheck();

  beforeAll(async () => {
    t = await startTestEmulator({ products: 20, orders: 40, bucket: 1_000_000, drainPerSecond: 100_000 });
  });
  afterAll(() => t.emulator.close());

  // The run that found a 500 (an empty option name) sent no Idempotency-Key; each mode gets its own run.
  it.each([
    ['sometimes', 34, ROUNDS_PER_OPERATION],
    ['never', 41, ROUNDS_PER_KEY_MODE],
    ['always', 43, ROUNDS_PER_KEY_MODE],
  ] as const)(
    'answers no 5xx, errors only in the envelope, and nothing the document does not describe (Idempotency-Key %s)',
    async (keyMode, seed, rounds) => {
      const random = generator(seed);
      const { store, keys } = t.emulator;
      const ids = [
        ...[...store.products.keys()].slice(0, 3),
        ...[...store.listings.keys()].slice(0, 3),
        ...[...store.orders.keys()].slice(0, 3),
        ...[...store.accounts.keys()].slice(0, 2),
        ...store.allSkus().slice(0, 3),
        ...ODD_STRINGS.filter((value) => value !== ''),
      ];
      const problems: string[] = [];
      let sent = 0;
      const fuzzValue = (): unknown =>
        random.next() < 0.5 ? random.pick(ODD_VALUES) : random.pick(ODD_STRINGS);
      const [account] = store.accounts.keys();
      const [product] = store.products.keys();
      /** A body the operation takes, so that mutating one field of it reaches the handler's own rules. */
      const valid = (operation: ApiOperation): Record<string, unknown> => {
        // Now and then a SKU another product holds: a rule of the service (422), not a shape (400).
        const first = random.next() < 0.5 ? (store.allSkus()[0] as string) : `FZ-${sent}-A`;
        // Now and then options no rule foresaw: empty names and values, one name short, odd SKUs.
        const odd = random.next() < 0.3 ? random.pick(ODD_OPTIONS) : undefined;
        const variants = [
          {
            sku: odd ? random.pick(['FZ-odd', '..', '.', 'a/b']) : first,
            price: '5.00',
            options: odd ?? { size: 'S' },
          },
          { sku: `FZ-${sent}-B`, price: '5.00', ...(odd ? {} : { options: { size: 'M' } }) },
        ];
        const item = { product_id: product, channel_account_id: account };
        const bodies: Record<string, Record<string, unknown>> = {
          createProduct: { title: 'Fuzz', variants, images: [{ url: 'https://img.example.com/a.png' }] },
          updateProduct: { title: 'Fuzzed', tags: ['a'] },
          batchProducts: { items: [{ title: 'Fuzz', variants }] },
          uploadFile: { base64: 'iVBORw0KGgo=', filename: 'x.png' },
          createListing: item,
          batchListings: { items: [item] },
          updateListing: { overrides: { title: 'Fuzz' }, attributes: { color: 'Red' } },
          batchInventory: { items: [{ sku: store.allSkus()[0], quantity: 3 }] },
          updateInventory: { quantity: 4, price: '9.99' },
          fulfillOrder: { tracking: { number: '1Z', carrier: 'UPS' } },
          createWebhookEndpoint: { url: 'https://hooks.example.com/x', enabled_events: ['*'] },
          updateWebhookEndpoint: { status: 'disabled' },
        };
        return structuredClone(bodies[operation.id] ?? {});
      };
      const fuzzBody = (operation: ApiOperation): unknown => {
        const roll = random.next();
        if (roll < 0.15) return random.pick(ODD_VALUES);
        const body = valid(operation);
        if (roll < 0.5) return body;
        const fields = Object.keys(body);
        const field =
          fields.length > 0 && random.next() < 0.8
            ? random.pick(fields)
            : random.pick(['title', 'items', 'x']);
        body[field] = fuzzValue();
        return body;
      };
      for (const operation of API_OPERATIONS) {
        for (let round = 0; round < rounds; round++) {
          const path = operation.path.replace(/\{\w+\}/g, () => encodeURIComponent(random.pick(ids)));
          const query = new URLSearchParams();
          for (const name of Object.keys(operation.query?.shape ?? {}))
            if (random.next() < 0.4) query.set(name, String(fuzzValue()));
          if (random.next() < 0.2) query.set('limit', random.pick(['0', '101', '-5', 'ten', '1.5', '100']));
          const target = query.size > 0 ? `${path}?${query}` : path;
          const key = random.pick([
            keys.live,
            keys.live,
            keys.test,
            keys.read_only,
            keys.lapsed,
            null,
            'svc_live_nope',
          ]);
          const write = operation.method !== 'GET';
          const method = random.next() < 0.05 ? random.pick(['PUT', 'HEAD'] as const) : operation.method;
          const headers: Record<string, string> = {};
          if (write && keyMode === 'always') headers['idempotency-key'] = `fz-${seed}-${sent}`;
          if (write && keyMode === 'sometimes' && random.next() < 0.2)
            headers['idempotency-key'] = random.pick(['k1', 'k2', '', 'x'.repeat(256)]);
          const raw =
            random.next() < 0.1 ? random.pick(['{', 'quantity=1', '[]', '"x"', '\u00ff\u00fe']) : undefined;
          const answer = await call(t.emulator, method, target, {
            key,
            headers,
            ...(write ? (raw !== undefined ? { raw } : { body: fuzzBody(operation) }) : {}),
            contentType: random.pick(['application/json', 'application/json', 'text/plain', null]),
          });
          sent += 1;
          const where = `${method} ${target} → ${answer.status}`;
          if (answer.status >= 500) problems.push(`${where}: ${JSON.stringify(answer.body)}`);
          if (answer.status >= 400 && method !== 'HEAD') {
            const error = answer.body?.error;
            const enveloped =
              typeof error?.type === 'string' &&
              typeof error?.code === 'string' &&
              typeof error?.message === 'string' &&
              (error.param === undefined || typeof error.param === 'string');
            if (!enveloped) problems.push(`${where}: not the error envelope: ${JSON.stringify(answer.body)}`);
          }
          if (method === operation.method)
            problems.push(...check.problems({ method, path: target, ...answer }));
        }
      }
      expect(problems).toEqual([]);
      expect(sent).toBe(API_OPERATIONS.length * rounds);
      // Writes with a body no rule foresaw reached the handlers' rules (422), not only the shapes (400).
      expect(t.emulator.requests({ status: 422 }).length).toBeGreaterThan(0);
      // Enough of the run got past the checks to reach the handlers, or it fuzzed only the front door.
      const statuses = new Set(t.emulator.requests().map((record) => record.status));
      for (const status of [200, 201, 400, 401, 403, 404, 409]) expect(statuses).toContain(status);
    },
    // A busy machine: a real hang runs far past this.
    120_000,
  );

  it.each(['http://[bad/', '//x', '*', '/rest/v1/%', '/rest/v1/products/%E0%A4%A', '/rest/v1/health?%zz=1'])(
    'answers the request-target %j in the envelope, never by dropping the connection',
    async (target) => {
      const port = Number(new URL(t.emulator.url).port);
      const raw = await new Promise<string>((resolve, reject) => {
        const socket = connect(port, '127.0.0.1', () =>
          socket.write(`GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`),
        );
        let data = '';
        socket.setEncoding('utf8').on('data', (chunk: string) => {
          data += chunk;
        });
        socket.on('close', () => resolve(data));
        socket.on('error', reject);
      });
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(raw)?.[1]);
      expect(status, raw).toBeGreaterThanOrEqual(200);
      expect(status).toBeLessThan(500);
      const body = JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4));
      if (status >= 400)
        expect(body.error).toMatchObject({ type: expect.any(String), code: expect.any(String) });
    },
  );

  it.each([
    [
      'a request line past what the server reads',
      `GET /rest/v1/orders?q=${'x'.repeat(20_000)} HTTP/1.1\r\nHost: h\r\n\r\n`,
    ],
    ['a request that is not HTTP', 'HELLO THERE\r\n\r\n'],
    ['a header without a colon', 'GET /rest/v1/health HTTP/1.1\r\nHost h\r\n\r\n'],
  ])('answers %s in the envelope', async (_what, request) => {
    const port = Number(new URL(t.emulator.url).port);
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => socket.write(request));
      let data = '';
      socket.setEncoding('utf8').on('data', (chunk: string) => {
        data += chunk;
      });
      socket.on('close', () => resolve(data));
      socket.on('error', reject);
    });
    const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(raw)?.[1]);
    expect([400, 431], raw).toContain(status);
    expect(raw).toMatch(/content-type: application\/json/i);
    const body = JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4));
    expect(body.error).toMatchObject({ type: 'invalid_request_error', code: 'parameter_invalid' });
  });
});
