/**
 * `--report OUT.csv`: `line,key,status,code,message`, a row per input item in input order
 * (docs/guide.md, Output). A report is a file for people, opened in spreadsheets: CRLF as RFC 4180
 * says, and a cell that would start a formula kept as text (./spreadsheet.ts). `OUT.json` (an
 * array) and `OUT.ndjson` (a row a line) hold the same rows for scripts, values as they are.
 *
 * The report is a sink: rows go to the file as they are written, a buffer of about 64 KiB at a
 * time, so a report of a million rows costs no more memory than one of ten. Every write is
 * checked, the last one and the close included: a report that could not be written whole is
 * an error, never a short file passed off as the whole.
 */
import { closeSync, openSync, writeSync } from 'node:fs';
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

/** How rows become the file's text: what starts it, and each row. */
interface ReportFormat {
  /** What the file starts with (the CSV header line). */
  head: string;
  row(row: ReportRow): string;
  /** What the file ends with, after the last row. */
  tail: string;
}

/** The CSV report: a header, then a row per item, CRLF, formula-like cells kept text. */
const CSV_REPORT: ReportFormat = {
  head: reportRow(['line', 'key', 'status', 'code', 'message']),
  row: (row) =>
    reportRow([
      row.line === undefined ? '' : String(row.line),
      row.key,
      row.status,
      row.code ?? '',
      row.message ?? '',
    ]),
  tail: '',
};

/** One row as JSON: the values as they are, empty ones null (no formula guard: that is CSV's). */
function jsonRow(row: ReportRow): string {
  return JSON.stringify({
    line: row.line ?? null,
    key: row.key,
    status: row.status,
    code: row.code ?? null,
    message: row.message ?? null,
  });
}

/** A row a line, for scripts that stream. */
const NDJSON_REPORT: ReportFormat = { head: '', row: (row) => `${jsonRow(row)}\n`, tail: '' };

/** One JSON array; made per file, as it knows whether a row came before. */
function jsonArrayReport(): ReportFormat {
  let rows = 0;
  return { head: '[', row: (row) => `${rows++ === 0 ? '\n' : ',\n'}${jsonRow(row)}`, tail: '\n]\n' };
}

/** The format of the report at `path`, by its extension: .json, .ndjson (.jsonl), else CSV. */
function reportFormatFor(path: string): ReportFormat {
  const lower = path.toLowerCase();
  if (lower.endsWith('.ndjson') || lower.endsWith('.jsonl')) return NDJSON_REPORT;
  return lower.endsWith('.json') ? jsonArrayReport() : CSV_REPORT;
}

/** Bytes gathered before they go to the file. */
const FLUSH_AT = 1 << 16;

/**
 * A file written row by row (the report, or a run's spool of outcomes), synchronously and in
 * order, each write checked; `close` writes the rest and the format's end.
 */
export class RowFile<R> {
  private pending = '';
  private closed = false;

  private constructor(
    private readonly fd: number,
    private readonly path: string,
    private readonly format: { head: string; row(row: R): string; tail: string },
    private readonly what: string,
  ) {}

  /** Creates (or truncates) the file, failing early (exit 2) when the path cannot be written. */
  static open<R>(
    path: string,
    format: { head: string; row(row: R): string; tail: string },
    mode = 0o644,
    what = 'the report',
  ): RowFile<R> {
    let fd: number;
    try {
      fd = openSync(path, 'w', mode);
    } catch (error) {
      throw new FileError(`cannot write ${what} ${path}: ${(error as Error).message}`);
    }
    const file = new RowFile(fd, path, format, what);
    // The head goes now: a file that takes nothing (a reader gone, a full disk) says so at once.
    file.pending = format.head;
    try {
      file.flush();
    } catch (error) {
      file.abandon();
      throw error;
    }
    return file;
  }

  /** Adds one row; the file is written once enough has gathered. */
  write(row: R): void {
    if (this.closed) throw new Error(`${this.path} is closed`);
    this.pending += this.format.row(row);
    if (this.pending.length >= FLUSH_AT) this.flush();
  }

  /** Writes what is left and the format's end, then closes the file: only then is it whole. */
  close(): void {
    if (this.closed) return;
    this.pending += this.format.tail;
    try {
      this.flush();
    } catch (error) {
      this.abandon();
      throw error;
    }
    this.closed = true;
    try {
      closeSync(this.fd);
    } catch (error) {
      // Some file systems report a failed write only at close.
      throw this.writeError(error);
    }
  }

  /** Closes the file after a failure elsewhere, saying nothing of its own. */
  abandon(): void {
    if (this.closed) return;
    this.closed = true;
    try {
      closeSync(this.fd);
    } catch {
      // The run already fails for another reason.
    }
  }

  private flush(): void {
    if (this.pending === '') return;
    const bytes = Buffer.from(this.pending, 'utf8');
    this.pending = '';
    let written = 0;
    try {
      while (written < bytes.length) {
        const count = writeSync(this.fd, bytes, written, bytes.length - written);
        if (count <= 0) throw new Error('no bytes written');
        written += count;
      }
    } catch (error) {
      throw this.writeError(error);
    }
  }

  private writeError(error: unknown): FileIncomplete {
    return FileIncomplete.of(this.what, this.path, error);
  }
}

/** A --report file: the format its name asks for. */
export function openReport(path: string): RowFile<ReportRow> {
  return RowFile.open(path, reportFormatFor(path));
}

/** Writes a whole report at once (the bad lines of a file refused before anything was sent). */
export async function writeReport(
  path: string,
  rows: Iterable<ReportRow> | AsyncIterable<ReportRow>,
): Promise<void> {
  const file = openReport(path);
  try {
    for await (const row of rows) file.write(row);
  } catch (error) {
    file.abandon();
    throw error;
  }
  file.close();
}

function reportRow(cells: readonly string[]): string {
  return csvRow(cells.map(spreadsheetCell), '\r\n');
}
