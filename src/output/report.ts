/** `--report OUT.csv`: one row per item, `line,key,status,code,message`, in the file's line order. */
import { createWriteStream, type WriteStream } from 'node:fs';
import type { ItemOutcome } from '../core/bulk.js';
import { FileError } from '../errors.js';
import { csvRow } from './delimited.js';

/**
 * Rows held back to put them in line order: chunks in flight at once land in any order, but
 * never further apart than a few chunks, so a bounded buffer sorts them (and memory stays flat).
 */
const REORDER_ROWS = 10_000;

/** An open report file; rows are written in line order as outcomes arrive. */
export class ReportFile {
  private closing?: Promise<void>;
  private readonly held = new RowHeap();

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
    // CRLF, as RFC 4180 says: a report is a file for spreadsheets, not a pipe.
    stream.write(csvRow(['line', 'key', 'status', 'code', 'message'], '\r\n'));
    return new ReportFile(stream);
  }

  write(outcomes: readonly ItemOutcome[]): void {
    for (const outcome of outcomes) this.held.push(outcome);
    while (this.held.size > REORDER_ROWS) this.writeRow(this.held.pop() as ItemOutcome);
  }

  /** Writes what is held, in order, and ends the file; later calls wait for the same end. */
  close(): Promise<void> {
    this.closing ??= new Promise((resolve) => {
      while (this.held.size > 0) this.writeRow(this.held.pop() as ItemOutcome);
      this.stream.end(resolve);
    });
    return this.closing;
  }

  private writeRow(o: ItemOutcome): void {
    this.stream.write(csvRow([String(o.line), o.key, o.status, o.code ?? '', o.message ?? ''], '\r\n'));
  }
}

/** A min-heap of outcomes by line, first come first out among equal lines. */
class RowHeap {
  private readonly rows: Array<{ outcome: ItemOutcome; order: number }> = [];
  private added = 0;

  get size(): number {
    return this.rows.length;
  }

  push(outcome: ItemOutcome): void {
    this.rows.push({ outcome, order: this.added++ });
    let at = this.rows.length - 1;
    while (at > 0) {
      const parent = (at - 1) >> 1;
      if (!this.before(at, parent)) break;
      this.swap(at, parent);
      at = parent;
    }
  }

  pop(): ItemOutcome | undefined {
    const top = this.rows[0];
    const last = this.rows.pop();
    if (!top || !last) return undefined;
    if (this.rows.length > 0) {
      this.rows[0] = last;
      let at = 0;
      for (;;) {
        const left = 2 * at + 1;
        const right = left + 1;
        let first = at;
        if (left < this.rows.length && this.before(left, first)) first = left;
        if (right < this.rows.length && this.before(right, first)) first = right;
        if (first === at) break;
        this.swap(at, first);
        at = first;
      }
    }
    return top.outcome;
  }

  private before(a: number, b: number): boolean {
    const x = this.rows[a];
    const y = this.rows[b];
    return x.outcome.line !== y.outcome.line ? x.outcome.line < y.outcome.line : x.order < y.order;
  }

  private swap(a: number, b: number): void {
    [this.rows[a], this.rows[b]] = [this.rows[b], this.rows[a]];
  }
}
