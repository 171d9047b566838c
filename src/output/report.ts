/**
 * `--report OUT.csv`: `line,key,status,code,message`, a row per input item in input order
 * (docs/guide.md, Output). A report is a file for people, opened in spreadsheets: CRLF as RFC 4180
 * says, and a cell that would start a formula kept as text (./spreadsheet.ts).
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

/** An open report file, written whole once the run knows every item's outcome. */
export class ReportFile {
  private closing?: Promise<void>;

  private constructor(private readonly stream: WriteStream) {}

  /** Creates (or truncates) the report, failing early when the path cannot be written. */
  static async open(path: string): Promise<ReportFile> {
    const stream = createWriteStream(path);
    await new Promise<void>((resolve, reject) => {
      stream.once('open', () => resolve());
      stream.once('error', (error) =>
        reject(new FileError(`cannot write the report ${path}: ${error.message}`)),
      );
    });
    stream.write(reportRow(['line', 'key', 'status', 'code', 'message']));
    return new ReportFile(stream);
  }

  /** Writes every row, in the order given, and ends the file; later calls wait for the same end. */
  writeAll(rows: Iterable<ReportRow> | AsyncIterable<ReportRow>): Promise<void> {
    this.closing ??= (async () => {
      for await (const row of rows) {
        const cells = [row.line === undefined ? '' : String(row.line), row.key, row.status];
        if (!this.stream.write(reportRow([...cells, row.code ?? '', row.message ?? '']))) {
          await new Promise<void>((resolve) => this.stream.once('drain', () => resolve()));
        }
      }
      await new Promise<void>((resolve) => this.stream.end(() => resolve()));
    })();
    return this.closing;
  }
}

function reportRow(cells: readonly string[]): string {
  return csvRow(cells.map(spreadsheetCell), '\r\n');
}
