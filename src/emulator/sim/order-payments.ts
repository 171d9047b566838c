/**
 * Orders that arrived unpaid are paid or canceled later: each `awaiting_payment` arrival is
 * settled after an exponential delay of the operator's mean, canceled for the share set and
 * paid (`awaiting_shipment`) otherwise, with its `updated_at` and an `order.status_changed`
 * event stamped at that instant. Delay and outcome are a hash of the seed and the order id, and
 * settlements are applied before each request and on the emulator's timer, so runs repeat under the same clock.
 */
import type { OrderRecord } from '../model.js';
import { unitHash } from '../rng.js';
import type { Store } from '../store/store.js';
import { DueQueue } from './due-queue.js';

/** What payments need from the store. */
export type PaymentHost = Pick<Store, 'orders' | 'updateOrder'>;

/** How unpaid orders settle. */
export interface OrderPaymentOptions {
  seed: number;
  /** Mean time from an order's arrival to its payment or cancellation. */
  meanDelayMs: number;
  /** Share (0 to 1) of unpaid orders canceled instead of paid. */
  cancelShare: number;
}

/** Unpaid orders placed longer ago than this before start are left as they are (abandoned). */
const ADOPT_WINDOW_MS = 24 * 60 * 60 * 1000;

interface Settlement {
  orderId: string;
  status: 'awaiting_shipment' | 'canceled';
  dueMs: number;
  seq: number;
}

/** The settlement of unpaid orders of one store. */
export class OrderPayments {
  private readonly due = new DueQueue<Settlement>();
  private seq = 0;

  constructor(
    private readonly host: PaymentHost,
    readonly options: OrderPaymentOptions,
  ) {}

  /** Plan the settlement of an order that just arrived, if it awaits payment. */
  expect(order: OrderRecord, notBeforeMs = Date.parse(order.created_at)): void {
    if (order.status !== 'awaiting_payment') return;
    const salt = `${this.options.seed}|${order.id}`;
    // Exponential delays, a Poisson process per order; at least a second, so none settles on arrival.
    const delayMs = Math.max(
      1_000,
      Math.round(-Math.log(1 - unitHash(`${salt}|delay`)) * this.options.meanDelayMs),
    );
    const status = unitHash(`${salt}|cancel`) < this.options.cancelShare ? 'canceled' : 'awaiting_shipment';
    const dueMs = Math.max(Date.parse(order.created_at) + delayMs, notBeforeMs);
    this.due.push({ orderId: order.id, status, dueMs, seq: this.seq++ });
  }

  /**
   * Take over the unpaid orders placed in the day before `nowMs` (after seeding or loading a
   * saved state); one overdue settles at `nowMs`, never before the emulator started.
   */
  adopt(nowMs: number): void {
    for (const order of this.host.orders.values()) {
      if (Date.parse(order.created_at) >= nowMs - ADOPT_WINDOW_MS) this.expect(order, nowMs);
    }
  }

  /** Apply every settlement due by `nowMs`, oldest first; an order moved on meanwhile stays as it is. */
  advance(nowMs: number): void {
    for (let next = this.due.popDue(nowMs); next; next = this.due.popDue(nowMs)) {
      const order = this.host.orders.get(next.orderId);
      if (order?.status !== 'awaiting_payment') continue;
      // Never behind a change made to the order since it was planned.
      this.host.updateOrder(
        order.id,
        { status: next.status },
        Math.max(next.dueMs, Date.parse(order.updated_at)),
      );
    }
  }

  /** Forget every planned settlement (reset). */
  clear(): void {
    this.due.clear();
  }
}
