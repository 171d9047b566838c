/**
 * The shipments CSV of `orders fulfill --file` (CLI.md, File formats):
 * `order_id,tracking_number,carrier[,tracking_url]`, checked whole before the first request.
 * BOM ignored, headers matched case-insensitively after trimming, delimiter detected from the
 * header line, physical line numbers (a record spanning lines reports its first).
 */
import { UsageError } from '../../errors.js';
import { detectDelimiter, readHeaderLine, readRecords } from '../inventory/csv-rows.js';

/** One order to fulfill, from the file's line `line`. */
export interface Shipment {
  /** Physical line where the record starts (header = 1); 0 when given on the command line. */
  line: number;
  orderId: string;
  trackingNumber: string;
  carrier: string;
  trackingUrl?: string;
}

/** How many bad lines are listed before the rest are only counted. */
export const SHIPMENT_PROBLEMS_SHOWN = 50;

const REQUIRED = ['order_id', 'tracking_number', 'carrier'] as const;

interface ShipmentColumns {
  orderId: number;
  trackingNumber: number;
  carrier: number;
  trackingUrl?: number;
}

/** Whether `value` is an absolute http(s) URL, as the API's `tracking.url` must be. */
export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/** Finds each column in the header row, or says what is missing. */
export function resolveShipmentColumns(header: string[]): ShipmentColumns {
  const names = header.map((h) => h.trim().toLowerCase());
  const missing = REQUIRED.filter((name) => !names.includes(name));
  if (missing.length > 0) {
    throw new UsageError(
      `line 1: the header needs ${missing.map((m) => `"${m}"`).join(', ')}; it has ${names.map((n) => `"${n}"`).join(', ')} (expected order_id,tracking_number,carrier[,tracking_url]); nothing was sent`,
    );
  }
  const url = names.indexOf('tracking_url');
  return {
    orderId: names.indexOf('order_id'),
    trackingNumber: names.indexOf('tracking_number'),
    carrier: names.indexOf('carrier'),
    trackingUrl: url < 0 ? undefined : url,
  };
}

/** One record as a shipment, or why it is bad. */
export function toShipment(
  record: string[],
  line: number,
  columns: ShipmentColumns,
): Shipment | { message: string } {
  const cell = (index: number | undefined) => (index === undefined ? '' : (record[index] ?? '').trim());
  const orderId = cell(columns.orderId);
  if (orderId === '') return { message: 'missing order_id' };
  const trackingNumber = cell(columns.trackingNumber);
  if (trackingNumber === '') return { message: `missing tracking_number (order ${orderId})` };
  const carrier = cell(columns.carrier);
  if (carrier === '') return { message: `missing carrier (order ${orderId})` };
  const trackingUrl = cell(columns.trackingUrl);
  if (trackingUrl !== '' && !isHttpUrl(trackingUrl)) {
    return { message: `tracking_url "${trackingUrl}" is not an http(s) URL (order ${orderId})` };
  }
  return { line, orderId, trackingNumber, carrier, ...(trackingUrl === '' ? {} : { trackingUrl }) };
}

/** Reads and checks the whole file; UsageError listing bad lines (first 50, then a count). */
export async function checkShipmentsFile(path: string): Promise<Shipment[]> {
  const delimiter = detectDelimiter(await readHeaderLine(path));
  const shipments: Shipment[] = [];
  const firstLineOf = new Map<string, number>();
  const problems: string[] = [];
  let problemCount = 0;
  let columns: ShipmentColumns | undefined;
  try {
    for await (const { record, line } of readRecords(path, delimiter)) {
      if (!columns) {
        columns = resolveShipmentColumns(record);
        continue;
      }
      const row = toShipment(record, line, columns);
      let problem = 'message' in row ? row.message : undefined;
      if (!problem && 'orderId' in row) {
        const first = firstLineOf.get(row.orderId);
        if (first !== undefined) problem = `order ${row.orderId} appears twice (first on line ${first})`;
        else firstLineOf.set(row.orderId, line);
      }
      if (problem) {
        problemCount++;
        if (problems.length < SHIPMENT_PROBLEMS_SHOWN) problems.push(`line ${line}: ${problem}`);
        continue;
      }
      shipments.push(row as Shipment);
    }
  } catch (error) {
    if (error instanceof UsageError) throw error;
    const lines = (error as { lines?: number }).lines;
    throw new UsageError(
      `${path}${lines ? ` line ${lines}` : ''}: not readable as CSV: ${(error as Error).message}; nothing was sent`,
    );
  }
  if (!columns) {
    throw new UsageError(
      `${path} is empty: it needs a header row order_id,tracking_number,carrier[,tracking_url]`,
    );
  }
  if (problemCount > 0) {
    const more = problemCount - problems.length;
    throw new UsageError(
      `${path}: ${problemCount} bad line${problemCount === 1 ? '' : 's'}; fix ${problemCount === 1 ? 'it' : 'them'} and run again (nothing was sent)`,
      more > 0 ? [...problems, `… and ${more} more`] : problems,
    );
  }
  if (shipments.length === 0) throw new UsageError(`${path} has a header but no rows; nothing to fulfill`);
  return shipments;
}
