import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { WEBHOOK_RETRY_DELAYS_MS } from '../../src/contract/contract.js';
import { verifySignature } from '../../src/contract/signature.js';
import { independentlyVerified, type Receiver, signedAt, startReceiver } from '../helpers/receiver.js';
import { call, get } from '../helpers/service-api.js';
import { startTestEmulator, type TestEmulator } from './helpers.js';

/** Changes one SKU's quantity over HTTP with the live key, so the store emits inventory.updated. */
async function touchInventory(t: TestEmulator, skuIndex = 0): Promise<string> {
  const sku = t.emulator.store.allSkus()[skuIndex];
  const current = t.emulator.store.inventoryBySku(sku)?.quantity ?? 0;
  const answer = await call(t.emulator, 'PATCH', `/inventory/${encodeURIComponent(sku)}`, {
    body: { quantity: current + 1 },
  });
  expect(answer.status).toBe(200);
  return sku;
}

/** How many distinct events a receiver got (a delivery repeated after a timeout counts once). */
function eventsIn(receiver: Receiver): number {
  return new Set(receiver.received.map((delivery) => (JSON.parse(delivery.body) as { id: string }).id)).size;
}

async function createEndpoint(t: TestEmulator, body: Record<string, unknown>, key?: string) {
  return call(t.emulator, 'POST', '/webhook_endpoints', { body, key });
}

describe('/webhook_endpoints', () => {
  let t: TestEmulator;
  beforeAll(async () => {
    t = await startTestEmulator({ rateLimit: false });
  });
  beforeEach(() => t.emulator.reset());
  afterAll(() => t.emulator.close());

  it('creates an endpoint (201, secret only in this answer), lists, gets, updates and deletes it', async () => {
    const created = await createEndpoint(t, {
      url: 'https://example.com/hooks',
      enabled_events: ['order.created'],
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      object: 'webhook_endpoint',
      url: 'https://example.com/hooks',
      enabled_events: ['order.created'],
      status: 'enabled',
    });
    expect(created.body.id).toMatch(/^we_/);
    expect(created.body.secret).toMatch(/^whsec_[A-Za-z0-9]+$/);
    const id = created.body.id as string;

    const list = await get(t.emulator, '/webhook_endpoints');
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ object: 'list', has_more: false, next_cursor: null });
    expect(list.body.data.map((e: { id: string }) => e.id)).toEqual([id]);
    expect(list.body.data[0]).not.toHaveProperty('secret');

    const one = await get(t.emulator, `/webhook_endpoints/${id}`);
    expect(one.body.id).toBe(id);
    expect(one.body).not.toHaveProperty('secret');

    const patched = await call(t.emulator, 'PATCH', `/webhook_endpoints/${id}`, {
      body: { status: 'disabled', enabled_events: ['*'], url: 'http://localhost:9/x' },
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({
      status: 'disabled',
      enabled_events: ['*'],
      url: 'http://localhost:9/x',
    });
    expect(patched.body).not.toHaveProperty('secret');

    const deleted = await call(t.emulator, 'DELETE', `/webhook_endpoints/${id}`);
    expect(deleted.body).toEqual({ id, object: 'webhook_endpoint', deleted: true });
    expect((await get(t.emulator, `/webhook_endpoints/${id}`)).status).toBe(404);
  });

  it.each([
    ['http to a public host', 'http://example.com/hooks'],
    ['not a URL', 'hooks'],
    ['another scheme', 'ftp://127.0.0.1/hooks'],
  ])('refuses %s with 400 naming url', async (_label, url) => {
    const answer = await createEndpoint(t, { url, enabled_events: ['*'] });
    expect(answer.status).toBe(400);
    expect(answer.body.error.param).toBe('url');
  });

  it.each([
    'http://127.0.0.1:3000/h',
    'http://localhost/h',
    'http://[::1]:8080/h',
    'https://hooks.example.com/',
  ])('accepts %s', async (url) => {
    expect((await createEndpoint(t, { url, enabled_events: ['*'] })).status).toBe(201);
  });

  it('refuses an unknown event type and an empty list', async () => {
    const unknown = await createEndpoint(t, { url: 'https://example.com', enabled_events: ['order.eaten'] });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.param).toBe('enabled_events[0]');
    const empty = await createEndpoint(t, { url: 'https://example.com', enabled_events: [] });
    expect(empty.status).toBe(400);
  });

  it('needs webhooks:manage', async () => {
    const answer = await get(t.emulator, '/webhook_endpoints', t.emulator.keys.read_only);
    expect(answer.status).toBe(403);
    expect(answer.body.error.code).toBe('scope_missing');
  });

  it('keeps nothing for a test key but answers in the same shape', async () => {
    const answer = await createEndpoint(
      t,
      { url: 'https://example.com', enabled_events: ['*'] },
      t.emulator.keys.test,
    );
    expect(answer.status).toBe(201);
    expect(answer.body.secret).toMatch(/^whsec_/);
    expect(t.emulator.store.webhookEndpoints.size).toBe(0);
  });
});

describe('webhook deliveries', () => {
  let t: TestEmulator;
  let receivers: Receiver[] = [];
  // The whole reference schedule (about 62 h of retries) in a fraction of a second.
  const timeScale = 1e-6;
  beforeAll(async () => {
    t = await startTestEmulator({ rateLimit: false, webhookTimeScale: 1e-4, webhookTimeoutMs: 300 });
  });
  beforeEach(() => t.emulator.reset());
  afterEach(async () => {
    await Promise.all(receivers.map((r) => r.close()));
    receivers = [];
  });
  afterAll(() => t.emulator.close());

  async function receiver(answer?: Parameters<typeof startReceiver>[0]): Promise<Receiver> {
    const started = await startReceiver(answer);
    receivers.push(started);
    return started;
  }

  it('retries a receiver that fails twice, then gets 200: three signed attempts of the same body', async () => {
    const flaky = await receiver((index) => (index < 2 ? 500 : 200));
    const endpoint = await createEndpoint(t, { url: flaky.url, enabled_events: ['inventory.updated'] });
    await touchInventory(t);
    await t.emulator.webhooks.idle();

    expect(flaky.received).toHaveLength(3);
    const events = (await get(t.emulator, '/events?type=inventory.updated&limit=1')).body.data;
    const logged = JSON.stringify(events[0]);
    for (const delivery of flaky.received) {
      // The body is exactly the event as the log keeps it.
      expect(delivery.body).toBe(logged);
      expect(delivery.contentType).toBe('application/json');
      expect(independentlyVerified(endpoint.body.secret, delivery.signature, delivery.body)).toBe(true);
      expect(signedAt(delivery.signature)).toBe(Math.floor(t.clock.now() / 1000));
      expect(
        verifySignature({
          payload: delivery.body,
          header: delivery.signature,
          secret: endpoint.body.secret,
          now: t.clock.now(),
        }).ok,
      ).toBe(true);
    }
    // The gaps follow the schedule's first two steps, scaled (1 min and 5 min → 6 ms and 30 ms).
    const gap = flaky.received[2].atMs - flaky.received[1].atMs;
    expect(gap).toBeGreaterThanOrEqual(WEBHOOK_RETRY_DELAYS_MS[1] * 1e-4 - 5);
    const attempts = t.emulator.webhooks.attempts({ endpointId: endpoint.body.id });
    expect(attempts.map((a) => [a.attempt, a.status, a.ok])).toEqual([
      [1, 500, false],
      [2, 500, false],
      [3, 200, true],
    ]);
    expect((await get(t.emulator, `/webhook_endpoints/${endpoint.body.id}`)).body.status).toBe('enabled');
  });

  it('disables an endpoint that never answers once the schedule runs out, and only that one', async () => {
    const emu = await startTestEmulator({
      rateLimit: false,
      webhookTimeScale: timeScale,
      webhookTimeoutMs: 150,
    });
    try {
      const silent = await receiver(() => 'hang');
      const healthy = await receiver();
      const dead = await createEndpoint(emu, { url: silent.url, enabled_events: ['*'] });
      const alive = await createEndpoint(emu, { url: healthy.url, enabled_events: ['*'] });
      await touchInventory(emu);
      await emu.emulator.webhooks.idle();

      // The first attempt and one retry per step of the service's schedule.
      expect(silent.received).toHaveLength(WEBHOOK_RETRY_DELAYS_MS.length + 1);
      const failures = emu.emulator.webhooks.attempts({ endpointId: dead.body.id });
      expect(failures.every((a) => !a.ok && a.status === null && /did not answer/.test(a.error ?? ''))).toBe(
        true,
      );
      expect((await get(emu.emulator, `/webhook_endpoints/${dead.body.id}`)).body.status).toBe('disabled');
      expect((await get(emu.emulator, `/webhook_endpoints/${alive.body.id}`)).body.status).toBe('enabled');
      // A busy machine may answer past the 150 ms and see the event again: the event, once.
      expect(eventsIn(healthy)).toEqual(1);

      // A disabled endpoint gets nothing more.
      await touchInventory(emu, 1);
      await emu.emulator.webhooks.idle();
      expect(silent.received).toHaveLength(WEBHOOK_RETRY_DELAYS_MS.length + 1);
      expect(eventsIn(healthy)).toEqual(2);
    } finally {
      await emu.emulator.close();
    }
  });

  it('sends only the types an endpoint subscribed to', async () => {
    const orders = await receiver();
    const everything = await receiver();
    await createEndpoint(t, { url: orders.url, enabled_events: ['order.created'] });
    await createEndpoint(t, { url: everything.url, enabled_events: ['*'] });
    await touchInventory(t);
    await t.emulator.webhooks.idle();
    expect(orders.received).toHaveLength(0);
    expect(everything.received).toHaveLength(1);
    expect(JSON.parse(everything.received[0].body).type).toBe('inventory.updated');
  });

  it('sends nothing for a test-key write (no event is emitted)', async () => {
    const hooks = await receiver();
    await createEndpoint(t, { url: hooks.url, enabled_events: ['*'] });
    const sku = t.emulator.store.allSkus()[0];
    const answer = await call(t.emulator, 'PATCH', `/inventory/${encodeURIComponent(sku)}`, {
      body: { quantity: 1234 },
      key: t.emulator.keys.test,
    });
    expect(answer.status).toBe(200);
    await t.emulator.webhooks.idle();
    expect(hooks.received).toHaveLength(0);
  });

  it('stops retrying when the endpoint is disabled by PATCH meanwhile', async () => {
    const emu = await startTestEmulator({ rateLimit: false, webhookTimeScale: 1e-3 });
    try {
      const failing = await receiver(() => 503);
      const endpoint = await createEndpoint(emu, { url: failing.url, enabled_events: ['*'] });
      await touchInventory(emu);
      await failing.waitFor(2, 5_000);
      await call(emu.emulator, 'PATCH', `/webhook_endpoints/${endpoint.body.id}`, {
        body: { status: 'disabled' },
      });
      await emu.emulator.webhooks.idle();
      expect(failing.received.length).toBeLessThan(WEBHOOK_RETRY_DELAYS_MS.length + 1);
    } finally {
      await emu.emulator.close();
    }
  });

  it('delivers a duplicate when asked (at-least-once), same event id, freshly signed', async () => {
    const emu = await startTestEmulator({ rateLimit: false, webhookDuplicateRate: 1 });
    try {
      const hooks = await receiver();
      const endpoint = await createEndpoint(emu, { url: hooks.url, enabled_events: ['*'] });
      await touchInventory(emu);
      await emu.emulator.webhooks.idle();
      expect(hooks.received).toHaveLength(2);
      expect(hooks.received[0].body).toBe(hooks.received[1].body);
      for (const delivery of hooks.received) {
        expect(independentlyVerified(endpoint.body.secret, delivery.signature, delivery.body)).toBe(true);
      }
      expect(
        emu.emulator.webhooks.attempts({ endpointId: endpoint.body.id }).map((a) => a.duplicate),
      ).toEqual([false, true]);
    } finally {
      await emu.emulator.close();
    }
  });
});
