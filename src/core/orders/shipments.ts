/**
 * The shipments CSV of `orders fulfill --file` (docs/guide.md, Input files):
 * `order_id,tracking_number,carrier[,tracking_url]`, checked whole before the first request.
 * BOM ignored, headers matched ignoring case, spaces and underscores (`Order ID`, as shipping
 * tools export them) or named by `--map`, delimiter detected from the header line, physical line
 * numbers (a record spanning lines reports its first).
 */
import { type InputProblem, UsageError } from '../../errors.js';
import {
  type ColumnPlan,
  extraCellsProblem,
  type FieldSpec,
  looseHeaderKey,
  mapSuggestion,
  planColumns,
} from '../csv/columns.js';
import { badLinesError } from '../csv/problems.js';
import { CsvFile } from '../csv/reader.js';
import { keyTextProblem, type TextEncoding, withEncodingProblems } from '../csv/text.js';

/** One order to fulfill, from the file's line `line`. */
export interface Shipment {
  /** Physical line where the record starts (header = 1); 0 when given on the command line. */
  line: number;
  /** The order column as written: an svc id (`ord_…`) or the order's number on its channel. */
  orderId: string;
  /** The svc id a channel number was resolved to (./order-numbers.ts). */
  target?: string;
  trackingNumber: string;
  carrier: string;
  trackingUrl?: string;
}

/** The fields of the file, for `--map`. */
export const SHIPMENT_FIELDS = ['order_id', 'tracking_number', 'carrier', 'tracking_url'] as const;

/** Headers that give away a required column under another name, so the error can name the --map. */
const REQUIRED: readonly FieldSpec[] = [
  {
    field: 'order_id',
    lookalikes: ['orderid', 'ordernumber', 'orderno', 'ordernum'],
    // How shipping tools and marketplaces head the order's number on its channel.
    aliases: ['Order Number', 'Order #', 'Order No', 'Order Num', 'Marketplace Order ID', 'Channel Order ID'],
  },
  {
    field: 'tracking_number',
    lookalikes: ['trackingnumber', 'trackingno', 'trackingnum', 'trackingid', 'trackingcode'],
    aliases: ['Tracking', 'Tracking #', 'Tracking No', 'Tracking Code', 'Tracking ID'],
  },
  {
    field: 'carrier',
    lookalikes: ['carrier', 'courier', 'shipper', 'carriercode', 'shippingprovider'],
    aliases: ['Courier', 'Carrier Code', 'Shipping Carrier', 'Shipping Provider'],
  },
];

/** The file's fields; a column that looks like a tracking URL must not be left out unnoticed. */
const FIELD_SPECS: readonly FieldSpec[] = [
  ...REQUIRED.map(({ field, aliases }) => ({ field, aliases })),
  {
    field: 'tracking_url',
    lookalikes: ['url', 'link', 'href', 'trackingurl', 'tracking_url', 'trackinglink'],
    aliases: ['Tracking Link', 'Tracking Page'],
  },
];

/** How the file is read. */
export interface ShipmentsReadOptions {
  /** `--map order_id=Order Number,…`: field → header name as given. */
  map?: Readonly<Record<string, string>>;
  /** `--ignore Note,Weight`: columns meant to be left out. */
  ignore?: readonly string[];
  encoding?: TextEncoding;
}

/** A shipments file that passed the check. */
export interface CheckedShipments {
  shipments: Shipment[];
  /** The columns read and those left out, for the plan line. */
  plan: ColumnPlan;
  /** Rows whose cells were all empty, skipped like blank lines. */
  emptyRows: number;
}

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

/** Finds each column in the header row (with the plan of used and ignored columns), or says what is wrong. */
function resolveShipmentColumns(
  header: string[],
  options: ShipmentsReadOptions,
): { columns: ShipmentColumns; plan: ColumnPlan } {
  const plan = planColumns(header, FIELD_SPECS, {
    map: options.map,
    ignore: options.ignore,
    mappable: true,
    headerKey: looseHeaderKey,
  });
  const missing = REQUIRED.filter(({ field }) => plan.indexes[field] === undefined);
  if (missing.length > 0) {
    const names = missing.map(({ field }) => field);
    const has = header.map((cell) => `"${cell.trim()}"`).join(', ');
    const map = mapSuggestion(header, plan, missing) ?? `--map ${names[0]}=YourColumn`;
    throw new UsageError(
      `line 1: no column is read as ${names.join(', ')}; the header has ${has} (headers match order_id,tracking_number,carrier[,tracking_url] ignoring case, spaces and underscores): name ${missing.length === 1 ? 'it' : 'them'} with ${map}; nothing was sent`,
    );
  }
  const index = (field: string) => plan.indexes[field] as number;
  return {
    columns: {
      orderId: index('order_id'),
      trackingNumber: index('tracking_number'),
      carrier: index('carrier'),
      trackingUrl: plan.indexes.tracking_url,
    },
    plan,
  };
}

/** One record as a shipment, or why it is bad. */
function toShipment(record: string[], line: number, columns: ShipmentColumns): Shipment | InputProblem {
  const cell = (index: number | undefined) => (index === undefined ? '' : (record[index] ?? '').trim());
  const orderId = cell(columns.orderId);
  if (orderId === '') return { line, code: 'missing_order_id', message: 'missing order_id' };
  const key = orderId;
  const trackingNumber = cell(columns.trackingNumber);
  if (trackingNumber === '')
    return {
      line,
      key,
      code: 'missing_tracking_number',
      message: `missing tracking_number (order ${orderId})`,
    };
  const carrier = cell(columns.carrier);
  if (carrier === '')
    return { line, key, code: 'missing_carrier', message: `missing carrier (order ${orderId})` };
  for (const [what, value] of [
    ['order_id', orderId],
    ['tracking_number', trackingNumber],
    ['carrier', carrier],
  ] as const) {
    const text = keyTextProblem(what, value);
    if (text) return { line, key, code: 'invalid_text', message: text };
  }
  const trackingUrl = cell(columns.trackingUrl);
  // A URL parses with any character in it: text that is not what it seems is refused as a key's is.
  const urlText = trackingUrl === '' ? undefined : keyTextProblem('tracking_url', trackingUrl);
  if (urlText) return { line, key, code: 'invalid_text', message: urlText };
  if (trackingUrl !== '' && !isHttpUrl(trackingUrl)) {
    return {
      line,
      key,
      code: 'invalid_tracking_url',
      message: `tracking_url "${trackingUrl}" is not an http(s) URL (order ${orderId})`,
    };
  }
  return { line, orderId, trackingNumber, carrier, ...(trackingUrl === '' ? {} : { trackingUrl }) };
}

/** Reads and checks the whole file; UsageError with every bad line (the first 50 shown). */
export async function checkShipmentsFile(
  path: string,
  options: ShipmentsReadOptions = {},
): Promise<CheckedShipments> {
  const csv = await CsvFile.open(path, { encoding: options.encoding });
  const shipments: Shipment[] = [];
  const firstLineOf = new Map<string, number>();
  const problems: InputProblem[] = [];
  let header: { columns: ShipmentColumns; plan: ColumnPlan; width: number } | undefined;
  for await (const { record, line } of csv.records()) {
    if (!header) {
      header = { ...resolveShipmentColumns(record, options), width: record.length };
      continue;
    }
    const row = extraCellsProblem(record, header.width, line) ?? toShipment(record, line, header.columns);
    if ('message' in row) {
      problems.push(row);
      continue;
    }
    const first = firstLineOf.get(row.orderId);
    if (first !== undefined) {
      problems.push({
        line,
        key: row.orderId,
        code: 'duplicate_order',
        message: `order ${row.orderId} appears twice (first on line ${first})`,
      });
      continue;
    }
    firstLineOf.set(row.orderId, line);
    shipments.push(row);
  }
  const all = withEncodingProblems(problems, await csv.encodingProblems(), { usedOnly: true });
  if (all.length > 0) throw badLinesError(path, all);
  if (!header) {
    throw new UsageError(
      `${path} is empty: it needs a header row order_id,tracking_number,carrier[,tracking_url]`,
    );
  }
  if (shipments.length === 0) throw new UsageError(`${path} has a header but no rows; nothing to fulfill`);
  return { shipments, plan: header.plan, emptyRows: csv.skipped.emptyRows };
}
