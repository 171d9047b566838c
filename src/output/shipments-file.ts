/** `orders fulfill --save OUT.csv`: the shipments entered at a terminal, in the CSV `--file` reads. */
import { renameSync, rmSync, writeFileSync } from 'node:fs';
import type { Shipment } from '../core/orders/shipments.js';
import { FileError } from '../errors.js';
import { csvRow } from './delimited.js';

/**
 * Writes `order_id,tracking_number,carrier[,tracking_url]` rows to `path` whole or not at all
 * (a temporary file renamed into place), so a session cut short leaves the shipments entered
 * until then, never half a line.
 */
export function writeShipmentsFile(path: string, shipments: readonly Shipment[]): void {
  const withUrl = shipments.some((shipment) => shipment.trackingUrl !== undefined);
  const header = ['order_id', 'tracking_number', 'carrier', ...(withUrl ? ['tracking_url'] : [])];
  const lines = [csvRow(header, '\r\n')];
  for (const { orderId, trackingNumber, carrier, trackingUrl } of shipments)
    lines.push(csvRow([orderId, trackingNumber, carrier, ...(withUrl ? [trackingUrl ?? ''] : [])], '\r\n'));
  const temp = `${path}.${process.pid}.tmp`;
  try {
    writeFileSync(temp, lines.join(''));
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    throw new FileError(`cannot write ${path}: ${(error as Error).message}`);
  }
}
