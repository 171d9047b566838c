/**
 * `--report OUT.csv`: `line,key,status,code,message`, a row per input item in input order
 * (docs/guide.md, Output). A report is a file for people, opened in spreadsheets: CRLF as RFC 4180
 * says, and a cell that would start a formula kept as text (./spreadsheet.ts).
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
    const report = new ReportFile(stream, path);
    stream.write(reportRow(['line', 'key', 'status', 'code', 'message']));
    return report;
  }

  /**
   * Writes every row, in the order given, and closes the file; later calls wait for the same
   * end. Throws FileIncomplete when any write or the close failed.
   */
  writeAll(rows: Iterable<ReportRow> | AsyncIterable<ReportRow>): Promise<void> {
    this.closing ??= (async () => {
      for await (const row of rows) {
        if (this.failure) break;
        const cells = [row.line === undefined ? '' : String(row.line), row.key, row.status];
        if (!this.stream.write(reportRow([...cells, row.code ?? '', row.message ?? ''])))
          await this.drained();
      }
      await new Promise<void>((resolve) => {
        this.stream.once('close', () => resolve());
        if (this.stream.closed) resolve();
        else this.stream.end();
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

function reportRow(cells: readonly string[]): string {
  return csvRow(cells.map(spreadsheetCell), '\r\n');
}
