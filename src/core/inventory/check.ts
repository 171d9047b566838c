/** The whole-file check that runs before the first request of `inventory push`. */
import { createHash } from 'node:crypto';
import { type InputProblem, UsageError } from '../../errors.js';
import { type ColumnPlan, extraCellsProblem, parseIgnoredColumns } from '../csv/columns.js';
import { badLinesError } from '../csv/problems.js';
import { CsvFile, type Delimiter, type NumberedRecord, readRecordBatches } from '../csv/reader.js';
import { type TextEncoding, withEncodingProblems } from '../csv/text.js';
import {
  type ColumnIndexes,
  type InventoryRow,
  parseColumnMap,
  type RowProblem,
  resolveColumns,
  toRow,
} from './csv-rows.js';
import { confirmDuplicates, type DuplicateRow, SkuFingerprints } from './sku-lines.js';

const SAMPLE_ROWS = 5;

/** How the file is read. */
export interface InventoryReadOptions {
  /** `--map sku=Item,quantity=Qty`. */
  map?: string;
  /** `--ignore Note,Qty2`: columns meant to be left out. */
  ignore?: string;
  /** `--decimal-comma`: a single `,` in a price is its decimal separator (always so in a `;` file). */
  decimalComma?: boolean;
  encoding?: TextEncoding;
  /** Replaces the SKUs' fingerprints, for tests that force them to collide. */
  fingerprint?: (sku: string) => number;
}

/** The header's columns and width, once read. */
interface Header {
  columns: ColumnIndexes;
  plan: ColumnPlan;
  width: number;
}

/** What the check learned: enough to plan the push without holding the rows. */
export interface CheckedFile {
  path: string;
  delimiter: Delimiter;
  encoding: TextEncoding;
  columns: ColumnIndexes;
  /** The columns read and those left out, for the plan line. */
  plan: ColumnPlan;
  rowCount: number;
  /** Rows that set quantity 0 (the zeroing guard's judgement without a live read). */
  zeroQuantityRows: number;
  /** Rows whose cells were all empty, skipped like blank lines. */
  emptyRows: number;
  /** SHA-256 of the file's bytes, the key of its resume journal. */
  sha256: string;
  sample: InventoryRow[];
}

/**
 * Reads the whole file once; throws UsageError with every bad line (the first 50 shown).
 * `onBytes` sees every byte checked, as it is on disk (the push keeps a copy of exactly what it checked).
 */
export async function checkInventoryFile(
  path: string,
  options: InventoryReadOptions = {},
  onBytes?: (chunk: Buffer) => void,
): Promise<CheckedFile> {
  const map = parseColumnMap(options.map);
  const ignore = parseIgnoredColumns(options.ignore);
  const encoding = options.encoding ?? 'utf-8';
  const hash = createHash('sha256');
  const csv = await CsvFile.open(path, {
    encoding,
    onBytes: (chunk) => {
      hash.update(chunk);
      onBytes?.(chunk);
    },
  });
  // Every row counts until the exact check below finds a duplicate, which stops the run.
  const seen = new SkuFingerprints(options.fingerprint);
  const problems: InputProblem[] = [];
  const sample: InventoryRow[] = [];
  let header: Header | undefined;
  let rowCount = 0;
  let zeroQuantityRows = 0;
  for await (const batch of csv.batches()) {
    for (const { record, line } of batch) {
      if (!header) {
        const { columns, plan } = resolveColumns(record, map, ignore);
        const decimalComma = Boolean(options.decimalComma) || csv.delimiter === ';';
        header = { columns: { ...columns, decimalComma }, plan, width: record.length };
        continue;
      }
      const row = rowOf(record, line, header);
      if ('message' in row) {
        problems.push(row);
        continue;
      }
      seen.add(row.sku);
      rowCount++;
      if (row.quantity === 0) zeroQuantityRows++;
      if (sample.length < SAMPLE_ROWS) sample.push(row);
    }
  }
  const sha256 = hash.digest('hex');
  const repeated = seen.repeated();
  if (header && repeated.size > 0) {
    const duplicates = await duplicatesAgain(path, csv.delimiter, encoding, header, repeated, seen, sha256);
    for (const { line, sku, first } of duplicates) {
      problems.push({
        line,
        key: sku,
        code: 'duplicate_sku',
        message: `duplicate SKU ${sku} (first on line ${first})`,
      });
    }
    problems.sort((a, b) => a.line - b.line);
  }
  const all = withEncodingProblems(problems, await csv.encodingProblems(), { usedOnly: true });
  if (all.length > 0) throw badLinesError(path, all);
  if (!header)
    throw new UsageError(`${path} is empty: it needs a header row with sku and quantity and/or price`);
  if (rowCount === 0) throw new UsageError(`${path} has a header but no rows; nothing to push`);
  return {
    path,
    delimiter: csv.delimiter,
    encoding,
    columns: header.columns,
    plan: header.plan,
    rowCount,
    zeroQuantityRows,
    emptyRows: csv.skipped.emptyRows,
    sha256,
    sample,
  };
}

/** A row with its place among the file's rows, from 0: the key of the push's record. */
export type PlacedRow = InventoryRow & { index: number };

/** A record after the header as a row, or the reason it is bad. */
function rowOf(record: string[], line: number, header: Header): InventoryRow | RowProblem {
  return extraCellsProblem(record, header.width, line) ?? toRow(record, line, header.columns);
}

/**
 * The true duplicates among the rows whose SKU's fingerprint is `repeated`, from a second
 * read of the file, which must hold the bytes of the first (`sha256`).
 */
async function duplicatesAgain(
  path: string,
  delimiter: Delimiter,
  encoding: TextEncoding,
  header: Header,
  repeated: ReadonlySet<string>,
  fingerprints: SkuFingerprints,
  sha256: string,
): Promise<DuplicateRow[]> {
  const hash = createHash('sha256');
  const changed = () =>
    new UsageError(
      `${path} changed while it was being checked; run again once it is complete; nothing was sent`,
    );
  let duplicates: DuplicateRow[];
  try {
    const rows = validRows(
      readRecordBatches(path, delimiter, (chunk) => hash.update(chunk), encoding),
      header,
    );
    duplicates = await confirmDuplicates(repeated, rows, fingerprints);
  } catch {
    // It was read as CSV once: failing now, it is not the same file.
    throw changed();
  }
  if (hash.digest('hex') !== sha256) throw changed();
  return duplicates;
}

/** The valid rows of a file's records (the header first), in the batches they come in. */
async function* validRows(
  batches: AsyncIterable<NumberedRecord[]>,
  header: Header,
): AsyncGenerator<InventoryRow[]> {
  let first = true;
  for await (const records of batches) {
    const rows: InventoryRow[] = [];
    for (const { record, line } of records) {
      if (first) {
        first = false;
        continue;
      }
      const row = rowOf(record, line, header);
      if (!('message' in row)) rows.push(row);
    }
    yield rows;
  }
}

/** The file's rows in batches of `size`, streamed again after the check passed. */
export async function* inventoryBatches(file: CheckedFile, size: number): AsyncGenerator<PlacedRow[]> {
  let batch: PlacedRow[] = [];
  let header = true;
  let index = 0;
  for await (const records of readRecordBatches(file.path, file.delimiter, undefined, file.encoding)) {
    for (const { record, line } of records) {
      if (header) {
        header = false;
        continue;
      }
      const row = toRow(record, line, file.columns) as PlacedRow;
      row.index = index++;
      batch.push(row);
      if (batch.length === size) {
        yield batch;
        batch = [];
      }
    }
  }
  if (batch.length > 0) yield batch;
}
