/**
 * `--report OUT.csv`: `line,key,status,code,message`, a row per input item in input order
 * (docs/guide.md, Output). A report is a file for people, opened in spreadsheets: CRLF as RFC 4180
 * says, and a cell that would start a formula kept as text (./spreadsheet.ts). `OUT.json` (an
 * array) and `OUT.ndjson` (a row a line) hold the same rows for scripts, values as they are.
 */
import { createWriteStream, type WriteStream } from 'node:fs';
import { FileError, FileIncomplete } from '../errors.js';
import { csvRow } from './delimited.js';
import { spreadsheetCell } from './spreadsheet.js';

/** One row of a report; `line` is absent (an empty cell) for items that come from no file. */
export interface ReportRow {
  line?: number;
  key: string;
  status: string;
  code?: string | null;
  message?: string | null;
}

/** How a report is written, by its file's extension. */
type ReportFormat = 'csv' | 'json' | 'ndjson';

function formatOf(path: string): ReportFormat {
  const lower = path.toLowerCase();
  return lower.endsWith('.ndjson') || lower.endsWith('.jsonl')
    ? 'ndjson'
    : lower.endsWith('.json')
      ? 'json'
      : 'csv';
}

/** One row as JSON: the values as they are, empty ones null. */
function jsonRow(row: ReportRow): string {
  return JSON.stringify({
    line: row.line ?? null,
    key: row.key,
    status: row.status,
    code: row.code ?? null,
    message: row.message ?? null,
  });
}

/**
 * An open report file, written whole once the run knows every item's outcome. Every write and
 * the close are checked: a report cut short (a full disk, a reader gone) is an error, never a
 * file that merely looks finished.
 */
export class ReportFile {
  private closing?: Promise<void>;
  /** The first error of the stream, at any time after it opened. */
  private failure?: Error;

  private constructor(
    private readonly stream: WriteStream,
    private readonly path: string,
    private readonly format: ReportFormat,
  ) {
    stream.on('error', (error) => {
      this.failure ??= error;
    });
  }

  /** Creates (or truncates) the report, failing early when the path cannot be written. */
  static async open(path: string): Promise<ReportFile> {
    const stream = createWriteStream(path);
    await new Promise<void>((resolve, reject) => {
      stream.once('open', () => resolve());
      stream.once('error', (error) =>
        reject(new FileError(`cannot write the report ${path}: ${error.message}`)),
      );
    });
    const format = formatOf(path);
    if (format === 'csv') stream.write(reportRow(['line', 'key', 'status', 'code', 'message']));
    return new ReportFile(stream, path, format);
  }

  /**
   * Writes every row, in the order given, and closes the file; later calls wait for the same
   * end. Throws FileIncomplete when any write or the close failed.
   */
  writeAll(rows: Iterable<ReportRow> | AsyncIterable<ReportRow>): Promise<void> {
    this.closing ??= (async () => {
      let first = true;
      for await (const row of rows) {
        if (this.failure) break;
        if (!this.stream.write(rowText(this.format, row, first))) await this.drained();
        first = false;
      }
      const end = this.format === 'json' ? (first ? '[]\n' : '\n]\n') : '';
      await new Promise<void>((resolve) => {
        this.stream.once('close', () => resolve());
        if (this.stream.closed) resolve();
        else this.stream.end(end);
      });
      if (this.failure) throw FileIncomplete.of('the report', this.path, this.failure);
    })();
    return this.closing;
  }

  /** Until the stream takes more, or fails. */
  private drained(): Promise<void> {
    return new Promise<void>((resolve) => {
      if (this.failure || this.stream.destroyed) return resolve();
      const done = () => {
        this.stream.off('drain', done);
        this.stream.off('close', done);
        resolve();
      };
      this.stream.on('drain', done);
      this.stream.on('close', done);
    });
  }
}

/** The text of one row in the report's format (`first`: the first row of a JSON array). */
function rowText(format: ReportFormat, row: ReportRow, first: boolean): string {
  if (format === 'json') return `${first ? '[\n' : ',\n'}${jsonRow(row)}`;
  if (format === 'ndjson') return `${jsonRow(row)}\n`;
  const cells = [row.line === undefined ? '' : String(row.line), row.key, row.status];
  return reportRow([...cells, row.code ?? '', row.message ?? '']);
}

function reportRow(cells: readonly string[]): string {
  return csvRow(cells.map(spreadsheetCell), '\r\n');
}
