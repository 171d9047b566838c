/**
 * A delist in flight cannot be undone by a write: while a `listing.delist` operation is
 * pending, PATCH (and a second DELETE) of the listing are refused 409 `invalid_state` naming
 * that operation, and a delist that completes leaves the listing `delisted`.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { call, get } from '../helpers/service-api.js';
import { startTestEmulator, type TestEmulator } from './helpers.js';

const DELAY_MS = 1_000;

describe('a delist in flight', () => {
  let t: TestEmulator;
  /** A seeded listing that is live on its channel. */
  const listedId = (): string => {
    for (const listing of t.emulator.store.listings.values())
      if (listing.status === 'listed' && t.emulator.store.products.has(listing.product_id)) return listing.id;
    throw new Error('the seed has no listed listing');
  };
  const settle = async () => {
    t.clock.advance(DELAY_MS * 2);
    await get(t.emulator, '/health', null);
  };

  beforeAll(async () => {
    t = await startTestEmulator({ rateLimit: false, channelDelayMs: DELAY_MS, channelRateLimitShare: 0 });
  });
  beforeEach(() => t.emulator.reset());
  afterAll(() => t.emulator.close());

  it('refuses a PATCH right after the DELETE, naming the delist, and the listing ends delisted', async () => {
    const id = listedId();
    const delist = await call(t.emulator, 'DELETE', `/listings/${id}`);
    expect(delist.status).toBe(200);
    expect(delist.body.status).toBe('ongoing');
    const delistOp = delist.body.operation_id as string;

    const write = await call(t.emulator, 'PATCH', `/listings/${id}`, {
      body: { overrides: { title: 'Back on sale' } },
    });
    expect(write.status).toBe(409);
    expect(write.body.error).toMatchObject({ type: 'invalid_request_error', code: 'invalid_state' });
    expect(write.body.error.message).toContain(delistOp);
    const resync = await call(t.emulator, 'PATCH', `/listings/${id}`, { body: {} });
    expect(resync.status).toBe(409);
    // A test key is validated as a live one is: the same refusal, and nothing changes either way.
    const simulated = await call(t.emulator, 'PATCH', `/listings/${id}`, {
      body: {},
      key: t.emulator.keys.test,
    });
    expect(simulated.status).toBe(409);
    expect((await get(t.emulator, `/listings/${id}`)).body.operation_id).toBe(delistOp);

    await settle();
    expect((await get(t.emulator, `/operations/${delistOp}`)).body.status).toBe('succeeded');
    const after = (await get(t.emulator, `/listings/${id}`)).body;
    expect(after.status).toBe('delisted');
    expect(after.overrides.title).not.toBe('Back on sale');
  });

  it('refuses a second DELETE while the first is pending', async () => {
    const id = listedId();
    const first = await call(t.emulator, 'DELETE', `/listings/${id}`);
    const second = await call(t.emulator, 'DELETE', `/listings/${id}`);
    expect(second.status).toBe(409);
    expect(second.body.error.code).toBe('invalid_state');
    expect(second.body.error.message).toContain(first.body.operation_id);
    await settle();
    expect((await get(t.emulator, `/listings/${id}`)).body.status).toBe('delisted');
  });

  it('a delist sent while an update is pending wins: the listing ends delisted', async () => {
    const id = listedId();
    const update = await call(t.emulator, 'PATCH', `/listings/${id}`, { body: {} });
    expect(update.status).toBe(200);
    const delist = await call(t.emulator, 'DELETE', `/listings/${id}`);
    expect(delist.status).toBe(200);
    await settle();
    expect((await get(t.emulator, `/operations/${update.body.operation_id}`)).body.status).toBe('succeeded');
    expect((await get(t.emulator, `/listings/${id}`)).body.status).toBe('delisted');
  });

  it('takes writes again once the delist has failed on the channel and left the listing listed', async () => {
    const failing = await startTestEmulator({
      rateLimit: false,
      channelDelayMs: DELAY_MS,
      channelRateLimitShare: 0,
      channelFailureShare: 1,
    });
    try {
      const listing = [...failing.emulator.store.listings.values()].find(
        (candidate) => candidate.status === 'listed' && candidate.id_on_channel !== null,
      );
      const id = listing?.id as string;
      expect((await call(failing.emulator, 'DELETE', `/listings/${id}`)).status).toBe(200);
      failing.clock.advance(DELAY_MS * 2);
      expect((await get(failing.emulator, `/listings/${id}`)).body.status).toBe('listed');
      expect((await call(failing.emulator, 'PATCH', `/listings/${id}`, { body: {} })).status).toBe(200);
    } finally {
      await failing.emulator.close();
    }
  });
});
