/**
 * Reading an inventory CSV as the README's file formats say: header row, `sku` plus
 * `quantity` and/or `price`, `--map` renames, `--ignore` leaves columns out, BOM ignored,
 * case-insensitive trimmed headers, delimiter detected from the header line, any mix of line
 * endings, physical line numbers.
 */
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import type { Options } from 'csv-parse';
import { PRICE_PATTERN, QUANTITY_MAX } from '../../api/contract.js';
import { type InputProblem, UsageError } from '../../errors.js';
import { type ColumnPlan, type FieldSpec, planColumns } from '../csv/columns.js';
import { keyTextProblem, type TextEncoding, toUtf8 } from '../csv/text.js';

/** One row as it will be sent: an omitted field is left unchanged. */
export interface InventoryRow {
  /** Physical line where the record starts (header = 1). */
  line: number;
  sku: string;
  quantity?: number;
  price?: string;
}

/** A row that cannot be sent, and why. */
export type RowProblem = InputProblem;

/** The file's columns after `--map`: which physical column holds each field. */
export interface ColumnIndexes {
  sku: number;
  quantity?: number;
  price?: number;
}

export type Delimiter = ',' | ';' | '\t';

const FIELDS = ['sku', 'quantity', 'price'] as const;
type Field = (typeof FIELDS)[number];

/** The fields and the header words that give away a column meant as one of them. */
const FIELD_SPECS: readonly FieldSpec[] = [
  { field: 'sku' },
  {
    field: 'quantity',
    lookalikes: [
      'qty',
      'quantity',
      'quantities',
      'stock',
      'onhand',
      'on_hand',
      'available',
      'availability',
      'avail',
      'inventory',
      'inv',
      'count',
      'units',
      'amount',
      'level',
      'soh',
      'qoh',
    ],
  },
  {
    field: 'price',
    lookalikes: [
      'price',
      'prices',
      'pricing',
      'cost',
      'amount',
      'msrp',
      'rrp',
      'retail',
      'saleprice',
      'sale_price',
      'unitprice',
      'listprice',
    ],
  },
];

/** Parses `--map sku=Item,quantity=Qty` into field → header name (lower-cased, trimmed). */
export function parseColumnMap(raw: string | undefined): Partial<Record<Field, string>> {
  const map: Partial<Record<Field, string>> = {};
  if (!raw) return map;
  for (const pair of raw.split(',')) {
    const [field, header] = pair.split('=').map((s) => s.trim());
    if (!FIELDS.includes(field as Field) || !header) {
      throw new UsageError(
        `--map takes field=Header pairs for sku, quantity and price, e.g. --map sku=Item,quantity=Qty; got "${pair}"`,
      );
    }
    map[field as Field] = header.toLowerCase();
  }
  return map;
}

/** The delimiter of a header line: whichever of `,` `;` tab occurs most outside quotes. */
export function detectDelimiter(headerLine: string): Delimiter {
  const counts: Record<Delimiter, number> = { ',': 0, ';': 0, '\t': 0 };
  let quoted = false;
  for (const char of headerLine) {
    if (char === '"') quoted = !quoted;
    else if (!quoted && (char === ',' || char === ';' || char === '\t')) counts[char]++;
  }
  const best = (Object.entries(counts) as [Delimiter, number][]).sort((a, b) => b[1] - a[1])[0];
  return best[1] > 0 ? best[0] : ',';
}

/** Finds each field's column in the header (with the plan of used and ignored columns), or says what is wrong. */
export function resolveColumns(
  header: string[],
  map: Partial<Record<Field, string>>,
  ignore: readonly string[] = [],
): { columns: ColumnIndexes; plan: ColumnPlan } {
  const names = header.map((h) => h.trim().toLowerCase());
  // Without a SKU column nothing else matters: say that first.
  if (!names.includes(map.sku ?? 'sku')) {
    throw new UsageError(
      `line 1: no ${map.sku ? `"${map.sku}" (mapped to sku)` : '"sku"'} column; the header has ${names.map((n) => `"${n}"`).join(', ')} (use --map sku=YourColumn)`,
    );
  }
  const plan = planColumns(header, FIELD_SPECS, { map, ignore, mappable: true });
  const { sku, quantity, price } = plan.indexes;
  if (quantity === undefined && price === undefined) {
    throw new UsageError(
      'line 1: the header needs a "quantity" or a "price" column (or --map quantity=…, price=…)',
    );
  }
  return { columns: { sku: sku as number, quantity, price }, plan };
}

/** Turns one record into a row, or the reason it is bad. */
export function toRow(record: string[], line: number, columns: ColumnIndexes): InventoryRow | RowProblem {
  const sku = record[columns.sku] ?? '';
  if (sku.trim() === '') return { line, code: 'missing_sku', message: 'missing SKU' };
  const text = keyTextProblem('SKU', sku);
  if (text) return { line, key: sku, code: 'invalid_sku', message: text };
  const row: InventoryRow = { line, sku };
  const rawQuantity = columns.quantity === undefined ? '' : (record[columns.quantity] ?? '').trim();
  const rawPrice = columns.price === undefined ? '' : (record[columns.price] ?? '').trim();
  if (rawQuantity !== '') {
    if (!/^\d+$/.test(rawQuantity) || Number(rawQuantity) > QUANTITY_MAX) {
      return {
        line,
        key: sku,
        code: 'invalid_quantity',
        message: `quantity "${rawQuantity}" is not a whole number from 0 to ${QUANTITY_MAX} (SKU ${sku})`,
      };
    }
    row.quantity = Number(rawQuantity);
  }
  if (rawPrice !== '') {
    if (!PRICE_PATTERN.test(rawPrice)) {
      return {
        line,
        key: sku,
        code: 'invalid_price',
        message: `price "${rawPrice}" is not a non-negative decimal such as 12.50 (SKU ${sku})`,
      };
    }
    row.price = rawPrice;
  }
  if (row.quantity === undefined && row.price === undefined) {
    return { line, key: sku, code: 'no_value', message: `neither quantity nor price is given (SKU ${sku})` };
  }
  return row;
}

/** The longest record read (1 MiB). */
export const MAX_RECORD_BYTES = 1 << 20;

/** Reads the first line of a file, for delimiter detection; a UTF-16 file is refused here. */
export async function readHeaderLine(path: string): Promise<string> {
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(64 * 1024);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    const head = buffer.subarray(0, bytesRead);
    if ((head[0] === 0xff && head[1] === 0xfe) || (head[0] === 0xfe && head[1] === 0xff)) {
      throw new UsageError(
        `${path} is UTF-16 text (Excel's "Unicode Text"); save it as "CSV UTF-8" and run again; nothing was sent`,
      );
    }
    const text = head.toString('utf8').replace(/^\uFEFF/, '');
    return text.split(/\r\n|\n|\r/, 1)[0] ?? '';
  } finally {
    await handle.close();
  }
}

/** One parsed record and the physical line it starts on (header = 1). */
export interface NumberedRecord {
  record: string[];
  line: number;
}

/** Every data record of the file with the physical line it starts on (streaming). */
export async function* readRecords(
  path: string,
  delimiter: Delimiter,
  onBytes?: (chunk: Buffer) => void,
  encoding: TextEncoding = 'utf-8',
): AsyncGenerator<NumberedRecord> {
  for await (const batch of readRecordBatches(path, delimiter, onBytes, encoding)) yield* batch;
}

/**
 * The records of the file in the batches each read chunk yields (streaming). For big files
 * this is the fast path: one await per chunk rather than per record, and line numbers read
 * from the parser's counters rather than from csv-parse's `info` option, which copies its
 * state into a new object for every record (it tripled the time of a million-row check).
 */
export async function* readRecordBatches(
  path: string,
  delimiter: Delimiter,
  onBytes?: (chunk: Buffer) => void,
  encoding: TextEncoding = 'utf-8',
): AsyncGenerator<NumberedRecord[]> {
  const { Parser } = await import('csv-parse');
  /** Numbers each record when the parser emits it, when its counters are those of that record. */
  class NumberingParser extends Parser {
    private batch: NumberedRecord[] = [];
    private previousEnd = 0;
    private previousEmpty = 0;

    override push(record: unknown): boolean {
      if (record === null) {
        this.flushBatch();
        return super.push(null);
      }
      const { lines, empty_lines } = this.info;
      const line = this.previousEnd + 1 + (empty_lines - this.previousEmpty);
      this.previousEnd = lines;
      this.previousEmpty = empty_lines;
      this.batch.push({ record: record as string[], line });
      return true;
    }

    override _transform(chunk: Buffer, encoding: BufferEncoding, callback: (error?: Error | null) => void) {
      super._transform(chunk, encoding, (error?: Error | null) => {
        this.flushBatch();
        callback(error);
      });
    }

    override _flush(callback: (error?: Error | null) => void) {
      super._flush((error?: Error | null) => {
        this.flushBatch();
        callback(error);
      });
    }

    private flushBatch(): void {
      if (this.batch.length === 0) return;
      const batch = this.batch;
      this.batch = [];
      super.push(batch);
    }
  }
  const source = createReadStream(path);
  if (onBytes) source.on('data', (chunk) => onBytes(chunk as Buffer));
  // Bytes in another encoding become UTF-8 on the way; the hash and checks above see them as they are.
  const decoder = toUtf8(encoding);
  const parser = (decoder ? source.pipe(decoder) : source).pipe(
    new NumberingParser({
      bom: true,
      delimiter,
      // Any mix of line endings splits into the lines a person sees (csv-parse would take the first one found as the only one).
      record_delimiter: ['\r\n', '\n', '\r'],
      skip_empty_lines: true,
      relax_column_count: true,
      // A record this long is a broken file, not inventory: a line error rather than the memory it takes.
      max_record_size: MAX_RECORD_BYTES,
      // One batch waiting is enough: the default 16 would hold some 40,000 rows of a big file.
      readableHighWaterMark: 1,
    } as Options),
  );
  source.on('error', (error) => parser.destroy(error));
  decoder?.on('error', (error) => parser.destroy(error));
  yield* parser as AsyncIterable<NumberedRecord[]>;
}
