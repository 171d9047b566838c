/**
 * Reading the CSV files bulk commands take, whatever their columns: the delimiter detected
 * from the header line, BOM ignored, any mix of line endings, physical line numbers, rows whose
 * cells are all empty (`;;;;` from a spreadsheet) skipped like blank lines and counted, bytes
 * decoded from --encoding and watched for text that is not UTF-8, and a parser that gives up
 * turned into one "not readable as CSV" line (exit 2). What the columns mean is each file
 * kind's own business (inventory, shipments, products).
 */
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import type { Options } from 'csv-parse';
import { type InputProblem, UsageError } from '../../errors.js';
import { type TextEncoding, toUtf8, Utf8Watch } from './text.js';

export type Delimiter = ',' | ';' | '\t';

/** Counts what a read skipped. */
export interface SkippedRows {
  /** Records whose cells are all empty or spaces, as spreadsheets leave below their data. */
  emptyRows: number;
}

/** A CSV file being read once, record by record, with what the reading learns of its text. */
export class CsvFile {
  /** What the reading skipped so far (complete once every record was read). */
  readonly skipped: SkippedRows = { emptyRows: 0 };

  private constructor(
    readonly path: string,
    readonly delimiter: Delimiter,
    readonly encoding: TextEncoding,
    private readonly onBytes: ((chunk: Buffer) => void) | undefined,
    private readonly utf8: Utf8Watch | undefined,
  ) {}

  /**
   * Reads the header line for the delimiter (a UTF-16 file is refused here). `onBytes` sees
   * every byte read, as it is on disk.
   */
  static async open(
    path: string,
    options: { encoding?: TextEncoding; onBytes?: (chunk: Buffer) => void } = {},
  ): Promise<CsvFile> {
    const encoding = options.encoding ?? 'utf-8';
    const delimiter = detectDelimiter(await readHeaderLine(path));
    return new CsvFile(
      path,
      delimiter,
      encoding,
      options.onBytes,
      encoding === 'utf-8' ? new Utf8Watch() : undefined,
    );
  }

  /** Every record (the header first) in the batches each read chunk yields; a parser failure is "not readable as CSV". */
  async *batches(): AsyncGenerator<NumberedRecord[]> {
    const { utf8, onBytes } = this;
    const watch = (chunk: Buffer) => {
      utf8?.onBytes(chunk);
      onBytes?.(chunk);
    };
    try {
      yield* readRecordBatches(
        this.path,
        this.delimiter,
        utf8 || onBytes ? watch : undefined,
        this.encoding,
        this.skipped,
      );
    } catch (error) {
      throw unreadableCsv(this.path, error);
    }
  }

  /** Every record (the header first), one at a time. */
  async *records(): AsyncGenerator<NumberedRecord> {
    for await (const batch of this.batches()) yield* batch;
  }

  /** After the reading: the lines holding bytes that are not UTF-8 (none when read as another encoding). */
  async encodingProblems(): Promise<InputProblem[]> {
    return (await this.utf8?.problems(this.path)) ?? [];
  }
}

/** What a CSV read ends with when the parser gives up: a UsageError as it is, else one naming the line. */
function unreadableCsv(path: string, error: unknown): Error {
  if (error instanceof UsageError) return error;
  const lines = (error as { lines?: number }).lines;
  return new UsageError(
    `${path}${lines ? ` line ${lines}` : ''}: not readable as CSV: ${(error as Error).message}; nothing was sent`,
  );
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

/** The longest record read (1 MiB). */
const MAX_RECORD_BYTES = 1 << 20;

/** Reads the first line of a file, for delimiter detection; a UTF-16 file is refused here. */
async function readHeaderLine(path: string): Promise<string> {
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
    // Without a byte order mark, UTF-16 shows as NUL beside every ASCII character of the header.
    const le = head.length >= 4 && head[1] === 0 && head[3] === 0 && head[0] !== 0;
    const be = head.length >= 4 && head[0] === 0 && head[2] === 0 && head[1] !== 0;
    if (le || be)
      throw new UsageError(
        `${path} is UTF-16 text (${le ? 'little' : 'big'}-endian, without a byte order mark); save it as "CSV UTF-8" and run again; nothing was sent`,
      );
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

/**
 * The records of the file in the batches each read chunk yields (streaming). For big files
 * this is the fast path: one await per chunk rather than per record, and line numbers read
 * from the parser's counters rather than from csv-parse's `info` option, which copies its
 * state into a new object for every record (it tripled the time of a million-row check).
 * Records whose cells are all empty are left out, and counted in `skipped`.
 */
export async function* readRecordBatches(
  path: string,
  delimiter: Delimiter,
  onBytes?: (chunk: Buffer) => void,
  encoding: TextEncoding = 'utf-8',
  skipped: SkippedRows = { emptyRows: 0 },
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
      // csv-parse's skip_records_with_empty_values would skip them too, but out of these counters' sight.
      if (isEmptyRecord(record as string[])) skipped.emptyRows++;
      else this.batch.push({ record: record as string[], line });
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

/** Whether every cell of a record is empty or spaces (the first cell decides for almost every row). */
function isEmptyRecord(record: readonly string[]): boolean {
  for (const cell of record) {
    if (cell.length > 0 && cell.charCodeAt(0) > 0x20) return false;
    if (cell.trim() !== '') return false;
  }
  return true;
}
