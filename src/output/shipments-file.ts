/** `orders fulfill --save OUT.csv`: the shipments entered at a terminal, in the CSV `--file` reads. */
import type { Shipment } from '../core/orders/shipments.js';
import { writeCsvFile } from './csv-file.js';

/**
 * Writes `order_id,tracking_number,carrier[,tracking_url]` rows to `path` whole or not at all,
 * so a session cut short leaves the shipments entered until then, never half a line.
 */
export function writeShipmentsFile(path: string, shipments: readonly Shipment[]): void {
  const withUrl = shipments.some((shipment) => shipment.trackingUrl !== undefined);
  const header = ['order_id', 'tracking_number', 'carrier', ...(withUrl ? ['tracking_url'] : [])];
  const rows = shipments.map(({ orderId, trackingNumber, carrier, trackingUrl }) => [
    orderId,
    trackingNumber,
    carrier,
    ...(withUrl ? [trackingUrl ?? ''] : []),
  ]);
  writeCsvFile(path, [header, ...rows], (reason) => `cannot write ${path}: ${reason}`);
}
