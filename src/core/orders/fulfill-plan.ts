/**
 * What `orders fulfill` decides before its first request (the push plan's sibling): the dry
 * run of a shipments file or of the shipments entered at a terminal, the question a live key is
 * asked, and the two requests it makes over a client, each counted.
 */
import type { ApiClient } from '../../client/client.js';
import { counted } from '../../words.js';
import type { ColumnPlan } from '../csv/columns.js';
import type { FulfillDeps } from './fulfill.js';
import type { Shipment } from './shipments.js';

/** How many shipments a dry run shows. */
const SHOWN = 5;

/** A dry run of fulfilling `shipments` (from `path`, or entered at a terminal when null): its plan as data and its sentences. */
export function fulfillDryRun(
  path: string | undefined,
  shipments: readonly Shipment[],
  columns: ColumnPlan | undefined,
): { plan: Record<string, unknown>; what: string; heading: string; first: string[] } {
  const sample = shipments.slice(0, SHOWN);
  return {
    plan: {
      file: path ?? null,
      ...(columns && {
        columns: Object.fromEntries(columns.used.map(({ field, header }) => [field, header])),
        ignored_columns: columns.ignored,
      }),
      orders: shipments.length,
      requests: shipments.length,
      write_quota: 0,
      first_rows: sample.map((s) => ({
        line: s.line,
        order_id: s.orderId,
        tracking_number: s.trackingNumber,
        carrier: s.carrier,
        tracking_url: s.trackingUrl ?? null,
      })),
    },
    what: `${counted(shipments.length, 'order')} would be fulfilled in ${counted(shipments.length, 'request')} (no daily write quota)`,
    heading: 'First rows',
    first: sample.map(
      (s) =>
        `${s.line > 0 ? `line ${s.line}: ` : ''}${s.orderId} ${s.carrier} ${s.trackingNumber}${s.trackingUrl ? ` ${s.trackingUrl}` : ''}`,
    ),
  };
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
