/**
 * Orders that move: with arrivals on, a share of new orders arrives `awaiting_payment` and is
 * later paid (`awaiting_shipment`) or canceled, with a newer `updated_at` and an
 * `order.status_changed` event, at shares and delays the operator sets; the clock is the test's.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { EmulatorOptions } from '../../src/emulator/index.js';
import { call, crawl, get } from '../helpers/service-api.js';
import { startTestEmulator, type TestEmulator } from './helpers.js';

const MINUTE = 60_000;

describe('orders that arrive unpaid', () => {
  let t: TestEmulator | undefined;
  afterEach(async () => {
    await t?.emulator.close();
    t = undefined;
  });

  /** An emulator whose arrivals are all unpaid, and the orders that arrived in its first five minutes. */
  async function arrivals(options: EmulatorOptions) {
    t = await startTestEmulator({
      rateLimit: false,
      orders: 20,
      orderArrivalPerMinute: 6,
      orderUnpaidShare: 1,
      ...options,
    });
    const startIso = new Date(t.clock.now()).toISOString();
    t.clock.advance(5 * MINUTE);
    const arrived = await crawl(t.emulator, `/orders?created_after=${startIso}`);
    return { t, arrived, startIso };
  }

  it('pays them later: awaiting_shipment, a newer updated_at, an order.status_changed event, and fulfillable', async () => {
    const { t, arrived, startIso } = await arrivals({
      orderPaymentDelayMs: 60 * MINUTE,
      orderCancelShare: 0,
    });
    expect(arrived.length).toBeGreaterThan(15);
    const waiting = arrived.filter((order) => order.status === 'awaiting_payment');
    expect(waiting.length).toBeGreaterThan(arrived.length * 0.7);
    const first = waiting[waiting.length - 1];
    const shipment = { body: { tracking: { number: 'PAY1', carrier: 'UPS' } } };
    const early = await call(t.emulator, 'POST', `/orders/${first.id}/fulfillment`, shipment);
    expect(early.status).toBe(409);

    t.clock.advance(10 * 60 * MINUTE);
    const now = (await get(t.emulator, `/orders/${first.id}`)).body;
    expect(now.status).toBe('awaiting_shipment');
    expect(now.source_status).not.toBe(first.source_status);
    expect(now.updated_at > first.updated_at).toBe(true);
    const changes = await crawl(
      t.emulator,
      `/events?type=order.status_changed&created_after=${now.updated_at}`,
    );
    const event = changes.find((candidate) => candidate.data.object.id === first.id);
    expect(event?.data.object).toMatchObject({ status: 'awaiting_shipment', updated_at: now.updated_at });
    expect(event?.created_at).toBe(now.updated_at);
    const paid = await crawl(
      t.emulator,
      `/orders?status=awaiting_shipment&created_after=${first.created_at}`,
    );
    expect(paid.map((order) => order.id)).toContain(first.id);
    expect(paid.every((order) => order.created_at >= startIso)).toBe(true);
    expect((await call(t.emulator, 'POST', `/orders/${first.id}/fulfillment`, shipment)).status).toBe(200);
  });

  it('cancels the share the operator sets, and pays none of those', async () => {
    const { t, arrived } = await arrivals({ orderPaymentDelayMs: MINUTE, orderCancelShare: 1 });
    t.clock.advance(20 * MINUTE);
    for (const order of arrived.slice(0, 10)) {
      expect((await get(t.emulator, `/orders/${order.id}`)).body.status).toBe('canceled');
    }
  });

  it('pays some and cancels some at the share set, most within a few mean delays', async () => {
    const { t, arrived } = await arrivals({ orderPaymentDelayMs: 20 * MINUTE, orderCancelShare: 0.5 });
    const statuses = async () =>
      Promise.all(arrived.map(async (order) => (await get(t.emulator, `/orders/${order.id}`)).body.status));
    t.clock.advance(60 * MINUTE);
    const later = await statuses();
    const paid = later.filter((status) => status === 'awaiting_shipment').length;
    const canceled = later.filter((status) => status === 'canceled').length;
    expect(paid).toBeGreaterThan(0);
    expect(canceled).toBeGreaterThan(0);
    expect(paid + canceled).toBeGreaterThan(arrived.length * 0.8);
  });

  it('moves nothing when the unpaid share is 0: every arrival is awaiting_shipment', async () => {
    const { arrived } = await arrivals({ orderUnpaidShare: 0 });
    expect(arrived.length).toBeGreaterThan(15);
    expect(arrived.every((order) => order.status === 'awaiting_shipment')).toBe(true);
  });
});
