/**
 * `--report OUT.csv`: `line,key,status,code,message`, a row per input item in input order
 * (docs/guide.md, Output). A report is a file for people, opened in spreadsheets: CRLF as RFC 4180
 * says, and a cell that would start a formula kept as text (./spreadsheet.ts). `OUT.json` (an
 * array) and `OUT.ndjson` (a row a line) hold the same rows for scripts, values as they are.
 */
import { createWriteStream, type WriteStream } from 'node:fs';
import { FileError } from '../errors.js';
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

/** An open report file, written whole once the run knows every item's outcome. */
export class ReportFile {
  private closing?: Promise<void>;

  private constructor(
    private readonly stream: WriteStream,
    private readonly format: ReportFormat,
  ) {}

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
    return new ReportFile(stream, format);
  }

  /** Writes every row, in the order given, and ends the file; later calls wait for the same end. */
  writeAll(rows: Iterable<ReportRow> | AsyncIterable<ReportRow>): Promise<void> {
    this.closing ??= (async () => {
      let first = true;
      for await (const row of rows) {
        if (!this.stream.write(rowText(this.format, row, first))) {
          await new Promise<void>((resolve) => this.stream.once('drain', () => resolve()));
        }
        first = false;
      }
      const end = this.format === 'json' ? (first ? '[]\n' : '\n]\n') : '';
      await new Promise<void>((resolve) => this.stream.end(end, () => resolve()));
    })();
    return this.closing;
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
