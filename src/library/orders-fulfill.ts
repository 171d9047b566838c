/**
 * `client.orders.fulfillAll(shipments | path, options)`: the run `svc orders fulfill --file`
 * makes (src/core/orders): the same check, channel order numbers resolved to orders before
 * anything is sent, a shipped order with the same tracking skipped, a lost answer read back
 * rather than guessed, and the same record of outcomes. Loaded on the first call.
 */

import { listOrders } from '../client/resources/orders.js';
import { type BulkProgress, recordRun } from '../core/bulk-run.js';
import type { BulkResult } from '../core/bulk-stopped.js';
import { parseColumnMap, parseIgnoredColumns } from '../core/csv/columns.js';
import { sendFulfilments } from '../core/orders/fulfill-plan.js';
import { isOrderId, resolveOrderNumbers } from '../core/orders/order-numbers.js';
import { checkShipmentsFile, SHIPMENT_FIELDS } from '../core/orders/shipments.js';
import { csvText, withFileOf, withoutLines } from './bulk-input.js';
import type { Connected } from './connect.js';

/** One order to mark shipped: its id (`ord_…`) or its number on its channel, and the tracking. */
export interface ShipmentInput {
  orderId: string;
  carrier: string;
  trackingNumber: string;
  trackingUrl?: string;
}

/** How a run of shipments goes; everything is optional. */
export interface FulfillAllOptions {
  /** A file's columns renamed: `order_id=Order Number,carrier=Courier`. */
  map?: string;
  /** A file's columns left unread: `Note,Weight`. */
  ignore?: string;
  /** A file's text: `utf-8` (default) or `latin1` (Windows-1252). */
  encoding?: 'utf-8' | 'latin1';
  /** Told after each answered request. */
  onProgress?: (progress: BulkProgress) => void;
  /** Stops the run: no request starts after it aborts; the result so far is thrown as BulkStopped. */
  signal?: AbortSignal;
}

/** Marks every shipment's order shipped as `svc orders fulfill --file` does. */
export async function fulfillAll(
  { client }: Connected,
  input: readonly ShipmentInput[] | string,
  options: FulfillAllOptions,
): Promise<BulkResult> {
  const map = parseColumnMap(options.map, SHIPMENT_FIELDS, "order_id='Order Number',carrier=Courier");
  const ignore = parseIgnoredColumns(options.ignore);
  const { encoding, signal } = options;
  const { shipments } = await withFileOf(input, 'shipments.csv', shipmentsCsv, (path) =>
    checkShipmentsFile(path, { map, ignore, encoding }),
  );
  const unresolved = { shipments, settled: new Map(), seen: new Map(), numberLines: 0, listRequests: 0 };
  const resolved = shipments.every((shipment) => isOrderId(shipment.orderId))
    ? unresolved
    : await resolveOrderNumbers(shipments, {
        list: (filters, onPage) => listOrders(client, filters, 'all', { onPage, signal }),
        filters: {},
        now: Date.now(),
      });
  const result = await recordRun({
    total: shipments.length,
    items: () => shipments.map((shipment) => ({ line: shipment.line, key: shipment.orderId })),
    signal,
    onProgress: options.onProgress,
    send: (run) => sendFulfilments(client, resolved, run),
  });
  return typeof input === 'string' ? result : withoutLines(result);
}

/** The shipments as the CSV the run checks. */
function shipmentsCsv(shipments: readonly ShipmentInput[]): string {
  return csvText(
    SHIPMENT_FIELDS,
    shipments.map((shipment) => [
      shipment.orderId,
      shipment.trackingNumber,
      shipment.carrier,
      shipment.trackingUrl,
    ]),
  );
}
