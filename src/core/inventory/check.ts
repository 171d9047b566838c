/** The whole-file check that runs before the first request of `inventory push`. */
import { createHash } from 'node:crypto';
import { UsageError } from '../../errors.js';
import {
  type ColumnIndexes,
  type Delimiter,
  detectDelimiter,
  type InventoryRow,
  parseColumnMap,
  readHeaderLine,
  readRecordBatches,
  resolveColumns,
  toRow,
} from './csv-rows.js';
import { SkuLines } from './sku-lines.js';

/** How many bad lines are listed before the rest are only counted. */
export const PROBLEMS_SHOWN = 50;
const SAMPLE_ROWS = 5;

/** What the check learned: enough to plan the push without holding the rows. */
export interface CheckedFile {
  path: string;
  delimiter: Delimiter;
  columns: ColumnIndexes;
  rowCount: number;
  /** SHA-256 of the file's bytes, the key of its resume journal. */
  sha256: string;
  sample: InventoryRow[];
}

/**
 * Reads the whole file once; throws UsageError listing bad lines (first 50, then a count).
 * `onBytes` sees every byte checked (the push keeps a copy of exactly what it checked).
 */
export async function checkInventoryFile(
  path: string,
  rawMap?: string,
  onBytes?: (chunk: Buffer) => void,
): Promise<CheckedFile> {
  const map = parseColumnMap(rawMap);
  const delimiter = detectDelimiter(await readHeaderLine(path));
  const hash = createHash('sha256');
  const firstLineOf = new SkuLines();
  const problems: string[] = [];
  const sample: InventoryRow[] = [];
  let problemCount = 0;
  let columns: ColumnIndexes | undefined;
  let rowCount = 0;
  try {
    for await (const batch of readRecordBatches(path, delimiter, (chunk) => {
      hash.update(chunk);
      onBytes?.(chunk);
    })) {
      for (const { record, line } of batch) {
        if (!columns) {
          columns = resolveColumns(record, map);
          continue;
        }
        const row = toRow(record, line, columns);
        let problem = 'message' in row ? row.message : undefined;
        if (!problem && 'sku' in row) {
          const first = firstLineOf.addOrGet(row.sku, line);
          if (first !== undefined) problem = `duplicate SKU ${row.sku} (first on line ${first})`;
        }
        if (problem) {
          problemCount++;
          if (problems.length < PROBLEMS_SHOWN) problems.push(`line ${line}: ${problem}`);
          continue;
        }
        rowCount++;
        if (sample.length < SAMPLE_ROWS) sample.push(row as InventoryRow);
      }
    }
  } catch (error) {
    if (error instanceof UsageError) throw error;
    const lines = (error as { lines?: number }).lines;
    throw new UsageError(
      `${path}${lines ? ` line ${lines}` : ''}: not readable as CSV: ${(error as Error).message}; nothing was sent`,
    );
  }
  if (!columns)
    throw new UsageError(`${path} is empty: it needs a header row with sku and quantity and/or price`);
  if (problemCount > 0) {
    const more = problemCount - problems.length;
    throw new UsageError(
      `${path}: ${problemCount} bad line${problemCount === 1 ? '' : 's'}; fix ${problemCount === 1 ? 'it' : 'them'} and run again (nothing was sent)`,
      more > 0 ? [...problems, `… and ${more} more`] : problems,
    );
  }
  if (rowCount === 0) throw new UsageError(`${path} has a header but no rows; nothing to push`);
  return { path, delimiter, columns, rowCount, sha256: hash.digest('hex'), sample };
}

/** The file's rows in batches of `size`, streamed again after the check passed. */
export async function* inventoryBatches(file: CheckedFile, size: number): AsyncGenerator<InventoryRow[]> {
  let batch: InventoryRow[] = [];
  let header = true;
  for await (const records of readRecordBatches(file.path, file.delimiter)) {
    for (const { record, line } of records) {
      if (header) {
        header = false;
        continue;
      }
      batch.push(toRow(record, line, file.columns) as InventoryRow);
      if (batch.length === size) {
        yield batch;
        batch = [];
      }
    }
  }
  if (batch.length > 0) yield batch;
}
