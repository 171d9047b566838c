/** The whole-file check that runs before the first request of `inventory push`. */
import { createHash } from 'node:crypto';
import { type InputProblem, UsageError } from '../../errors.js';
import { type ColumnPlan, extraCellsProblem, parseIgnoredColumns } from '../csv/columns.js';
import { badLinesError } from '../csv/problems.js';
import { CsvFile, type Delimiter, readRecordBatches } from '../csv/reader.js';
import { type TextEncoding, withEncodingProblems } from '../csv/text.js';
import { type ColumnIndexes, type InventoryRow, parseColumnMap, resolveColumns, toRow } from './csv-rows.js';
import { SkuLines } from './sku-lines.js';

const SAMPLE_ROWS = 5;

/** How the file is read. */
export interface InventoryReadOptions {
  /** `--map sku=Item,quantity=Qty`. */
  map?: string;
  /** `--ignore Note,Qty2`: columns meant to be left out. */
  ignore?: string;
  encoding?: TextEncoding;
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
  const firstLineOf = new SkuLines();
  const problems: InputProblem[] = [];
  const sample: InventoryRow[] = [];
  let header: { columns: ColumnIndexes; plan: ColumnPlan; width: number } | undefined;
  let rowCount = 0;
  let zeroQuantityRows = 0;
  for await (const batch of csv.batches()) {
    for (const { record, line } of batch) {
      if (!header) {
        header = { ...resolveColumns(record, map, ignore), width: record.length };
        continue;
      }
      const row = extraCellsProblem(record, header.width, line) ?? toRow(record, line, header.columns);
      if ('message' in row) {
        problems.push(row);
        continue;
      }
      const first = firstLineOf.addOrGet(row.sku, line);
      if (first !== undefined) {
        problems.push({
          line,
          key: row.sku,
          code: 'duplicate_sku',
          message: `duplicate SKU ${row.sku} (first on line ${first})`,
        });
        continue;
      }
      rowCount++;
      if (row.quantity === 0) zeroQuantityRows++;
      if (sample.length < SAMPLE_ROWS) sample.push(row);
    }
  }
  const all = withEncodingProblems(problems, await csv.encodingProblems());
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
    sha256: hash.digest('hex'),
    sample,
  };
}

/** A row with its place among the file's rows, from 0: the key of the push's record. */
export type PlacedRow = InventoryRow & { index: number };

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
