import { describe, expect, it } from 'vitest';
import { createManualClock, Store } from '../../../../src/emulator/index.js';
import type { OrderRecord } from '../../../../src/emulator/model.js';
import { seedData } from '../../../../src/emulator/seed/seed.js';
import { OrderPayments } from '../../../../src/emulator/sim/order-payments.js';

const HOUR = 3_600_000;

/** A seeded store on a manual clock, its orders all turned into unpaid ones placed `agesMs` ago. */
function storeWithUnpaid(agesMs: number[]) {
  const clock = createManualClock();
  const store = new Store(clock);
  store.load(seedData({ seed: 3, products: 5, orders: agesMs.length, now: clock.now() }));
  const orders = [...store.orders.values()];
  agesMs.forEach((age, index) => {
    const order = orders[index] as OrderRecord;
    store.orders.update(order, () => {
      order.status = 'awaiting_payment';
      order.created_at = new Date(clock.now() - age).toISOString();
      order.updated_at = order.created_at;
    });
  });
  return { clock, store, orders };
}

describe('OrderPayments', () => {
  it('adopts the unpaid orders of the last day, settles overdue ones no earlier than start, leaves older ones', () => {
    const { clock, store, orders } = storeWithUnpaid([30 * HOUR, 2 * HOUR, 60_000]);
    const payments = new OrderPayments(store, { seed: 1, meanDelayMs: 10 * 60_000, cancelShare: 0 });
    const startMs = clock.now();
    payments.adopt(startMs);
    payments.advance(startMs);
    const [old, overdue, fresh] = orders.map((order) => store.orders.get(order.id) as OrderRecord);
    expect(old.status).toBe('awaiting_payment');
    expect(overdue.status).toBe('awaiting_shipment');
    expect(overdue.updated_at).toBe(new Date(startMs).toISOString());
    clock.advance(10 * HOUR);
    payments.advance(clock.now());
    expect(fresh.status).toBe('awaiting_shipment');
    expect(fresh.updated_at > fresh.created_at).toBe(true);
    expect(fresh.updated_at <= new Date(clock.now()).toISOString()).toBe(true);
    expect(old.status).toBe('awaiting_payment');
  });

  it('leaves an order that moved on meanwhile as it is, and gives the same plan for the same seed', () => {
    const plan = (seed: number) => {
      const { clock, store, orders } = storeWithUnpaid([0, 0, 0, 0, 0, 0]);
      const payments = new OrderPayments(store, { seed, meanDelayMs: 60_000, cancelShare: 0.5 });
      for (const order of orders) payments.expect(order);
      store.updateOrder(orders[0].id, { status: 'canceled' });
      clock.advance(HOUR);
      payments.advance(clock.now());
      return orders.map((order) => `${order.status}@${order.updated_at}`);
    };
    const first = plan(1);
    expect(first[0]?.startsWith('canceled@')).toBe(true);
    expect(first).toEqual(plan(1));
    expect(first).not.toEqual(plan(2));
    expect(first.some((entry) => entry.startsWith('awaiting_shipment'))).toBe(true);
  });
});
