/**
 * What `orders fulfill` decides before its first request (the push plan's sibling): the question
 * a live key is asked, and the two requests it makes over a client, each counted (the dry run's
 * verdicts and the plan the bulk frame runs: src/cmdutil/orders/fulfill-file.ts).
 */
import type { ApiClient } from '../../client/client.js';
import { counted } from '../../words.js';
import type { RunRecord } from '../bulk-run.js';
import type { FulfillDeps } from './fulfill.js';
import type { ResolvedShipments } from './order-numbers.js';

/** "4 orders would be fulfilled, 1 would be skipped, 3 would fail, in 4 requests (no daily write quota)". */
export function fulfilWhat(send: number, skip: number, fail: number): string {
  const others = [skip > 0 ? `${skip} would be skipped` : '', fail > 0 ? `${fail} would fail` : ''].filter(
    Boolean,
  );
  const rest = others.length > 0 ? `, ${others.join(', ')},` : '';
  return `${counted(send, 'order')} would be fulfilled${rest} in ${counted(send, 'request')} (no daily write quota)`;
}

/** What a live key is asked before `count` orders are marked shipped. */
export function fulfillConfirmation(count: number): string {
  return `Mark ${counted(count, 'order')} shipped with a LIVE key (${counted(count, 'request')}; each marketplace notifies its buyer)`;
}

/** The two requests of a fulfilment over `client`, each counted, and the key's mode. */
export async function fulfillDepsOver(client: ApiClient, count: () => void): Promise<FulfillDeps> {
  const { fulfillOrder, getOrder } = await import('../../client/resources/orders.js');
  return {
    fulfill: (orderId, tracking, idempotencyKey) => {
      count();
      return fulfillOrder(client, orderId, tracking, { idempotencyKey });
    },
    get: (orderId) => {
      count();
      return getOrder(client, orderId);
    },
    simulated: !client.live,
  };
}

/**
 * Fulfils every shipment not settled before sending, through `client`, each outcome recorded
 * in `run`: the run `orders fulfill --file` and the library's `orders.fulfillAll` share.
 */
export async function sendFulfilments(
  client: ApiClient,
  { shipments, settled }: Pick<ResolvedShipments, 'shipments' | 'settled'>,
  run: RunRecord,
): Promise<void> {
  const { fulfillShipments } = await import('./fulfill.js');
  await fulfillShipments(shipments, {
    ...run.runOptions,
    deps: await fulfillDepsOver(client, () => run.countRequest()),
    settle: (outcome) => run.record([outcome]),
    settled,
  });
}
