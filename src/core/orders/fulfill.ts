/**
 * Fulfilling orders so that each marketplace is notified once: one POST per order with its
 * own Idempotency-Key; after an ambiguous failure the order is read back before any repeat
 * (the live service promises idempotency only on its PATCH endpoints); an order already
 * shipped with the same tracking number counts as done.
 */
import { randomUUID } from 'node:crypto';
import type { TrackingInput } from '../../client/resources/orders.js';
import type { Order } from '../../contract/schemas/order.js';
import { AmbiguousWriteError, ApiError } from '../../errors.js';
import { type BulkRunOptions, runItems } from '../bulk.js';
import type { ItemOutcome, ItemStatus } from '../outcomes.js';
import { type Settled, targetOf } from './order-numbers.js';
import type { Shipment } from './shipments.js';

/** What fulfilling needs from outside: the two requests, and whether the key is a test key. */
export interface FulfillDeps {
  /** POST /orders/{id}/fulfillment, not repeatable (raises AmbiguousWriteError). */
  fulfill: (orderId: string, tracking: TrackingInput, idempotencyKey: string) => Promise<Order>;
  /** GET /orders/{id}. */
  get: (orderId: string) => Promise<Order>;
  /** Test keys: the service simulates the write and changes nothing. */
  simulated: boolean;
  /** A fresh Idempotency-Key per order; default a random UUID. */
  newKey?: () => string;
}

/** One order's outcome, with the order as last seen and, for a failure, the error behind it. */
export interface FulfillResult {
  outcome: ItemOutcome;
  order?: Order;
  error?: ApiError;
  /** The order was read back after an ambiguous failure. */
  readBack: boolean;
}

/** How many times a POST is repeated after an ambiguous failure that the read-back showed unapplied. */
export const AMBIGUOUS_REPEATS = 2;

/** Answers that concern one order only; anything else (auth, rate limit, server trouble) stops the run. */
function isPerOrder(error: unknown): error is ApiError {
  return error instanceof ApiError && [400, 404, 409, 412, 422].includes(error.status);
}

/** How an order as read back relates to the shipment: done, still to do, or not fulfillable. */
function judgeOrder(order: Order, shipment: Shipment): 'done' | 'pending' | 'refused' {
  if (order.tracking?.number?.trim() === shipment.trackingNumber) return 'done';
  if (order.status === 'awaiting_shipment') return 'pending';
  return 'refused';
}

/** Why an order cannot be fulfilled, in a line that names it. */
function refusalMessage(order: Order): string {
  const number = order.tracking?.number;
  if (number) {
    const tracking = `tracking ${number}${order.tracking?.carrier ? ` (${order.tracking.carrier})` : ''}`;
    return order.status === 'shipped'
      ? `order ${order.id} was already shipped with ${tracking}`
      : `order ${order.id} was shipped with ${tracking} and is now ${order.status}`;
  }
  return `order ${order.id} is ${order.status}; only an order awaiting shipment can be fulfilled`;
}

/**
 * Fulfills one order (`index`: its place in the input); per-order refusals come back as a failed
 * outcome, anything else throws.
 */
export async function fulfillOne(deps: FulfillDeps, shipment: Shipment, index = 0): Promise<FulfillResult> {
  const key = (deps.newKey ?? randomUUID)();
  const tracking: TrackingInput = {
    number: shipment.trackingNumber,
    carrier: shipment.carrier,
    url: shipment.trackingUrl,
  };
  const result = (
    status: ItemStatus,
    order: Order | undefined,
    readBack: boolean,
    extra: Partial<ItemOutcome> = {},
  ) => ({
    outcome: { index, line: lineOf(shipment), key: shipment.orderId, status, ...extra },
    order,
    readBack,
  });
  const id = targetOf(shipment);
  let readBack = false;
  for (let repeats = 0; ; repeats++) {
    try {
      const order = await deps.fulfill(id, tracking, key);
      return result(deps.simulated ? 'simulated' : 'updated', order, readBack);
    } catch (error) {
      if (error instanceof AmbiguousWriteError) {
        readBack = true;
        const order = await deps.get(id);
        const verdict = judgeOrder(order, shipment);
        if (verdict === 'done') return result(deps.simulated ? 'simulated' : 'updated', order, true);
        if (verdict === 'pending' && repeats < AMBIGUOUS_REPEATS) continue;
        if (verdict === 'pending') throw error;
        return {
          ...result('failed', order, true, { code: 'invalid_state', message: refusalMessage(order) }),
        };
      }
      if (!isPerOrder(error)) throw error;
      if (error.status === 409) {
        // Refused as not fulfillable: read it back to tell "already done, same tracking" from a real refusal.
        const order = await deps.get(id);
        if (judgeOrder(order, shipment) === 'done') {
          return result('skipped', order, readBack, {
            message: `already shipped with tracking ${shipment.trackingNumber}`,
          });
        }
        return {
          ...result('failed', order, readBack, { code: error.code, message: refusalMessage(order) }),
          error,
        };
      }
      return {
        ...result('failed', undefined, readBack, { code: error.code, message: error.message }),
        error,
      };
    }
  }
}

/** How a shipments file is worked through. */
export interface FulfillShipmentsOptions extends BulkRunOptions {
  deps: FulfillDeps;
  /** Every order's outcome as it is known: answered, refused, or not sent because the run stopped. */
  settle: (outcome: ItemOutcome) => void;
  /** Lines settled before sending (a number whose order shipped, an unknown number), by place. */
  settled?: ReadonlyMap<number, Settled>;
}

/**
 * Fulfills every shipment, bounded and paced; stops on quota, signal or a run-wide error after
 * in-flight ones land, every order of the file settled.
 */
export async function fulfillShipments(
  shipments: readonly Shipment[],
  options: FulfillShipmentsOptions,
): Promise<void> {
  const { deps, settle, settled = new Map(), ...run } = options;
  for (const [index, verdict] of settled) {
    const shipment = shipments[index];
    settle({ index, line: lineOf(shipment), key: shipment.orderId, ...verdict, unsent: true });
  }
  await runItems(shipments, async (shipment, index) => (await fulfillOne(deps, shipment, index)).outcome, {
    ...run,
    settle,
    skip: (_shipment, index) => settled.has(index),
    describe: (shipment) => ({ line: lineOf(shipment), key: shipment.orderId }),
  });
}

/** A dry run's verdict on one line: what the live run would record for it. */
export interface FulfilVerdict {
  status: 'would_send' | 'would_skip' | 'would_fail';
  code?: string | null;
  message?: string | null;
}

/**
 * What the live run would do with a line, from the order as read now (or the error reading it
 * gave): the same judgement fulfillOne makes of the service's answer.
 */
export function predictFulfilment(shipment: Shipment, read: Order | ApiError): FulfilVerdict {
  if (read instanceof ApiError)
    return { status: 'would_fail', code: read.code ?? null, message: read.message };
  const verdict = judgeOrder(read, shipment);
  if (verdict === 'pending') return { status: 'would_send' };
  if (verdict === 'done')
    return { status: 'would_skip', message: `already shipped with tracking ${shipment.trackingNumber}` };
  return { status: 'would_fail', code: 'invalid_state', message: refusalMessage(read) };
}

/** Whether an error reading an order concerns that order alone (a per-line verdict), not the run. */
export function isPerOrderError(error: unknown): error is ApiError {
  return isPerOrder(error);
}

/** A shipment's line in its file; none for one given on the command line. */
function lineOf(shipment: Shipment): number | undefined {
  return shipment.line > 0 ? shipment.line : undefined;
}
