/** `--report OUT.csv`: one row per item, `line,key,status,code,message`. */
import { createWriteStream, type WriteStream } from 'node:fs';
import type { ItemOutcome } from '../core/bulk.js';
import { UsageError } from '../errors.js';
import { csvRow } from './delimited.js';

/** An open report file; rows are written as outcomes arrive. */
export class ReportFile {
  private closing?: Promise<void>;

  private constructor(private readonly stream: WriteStream) {}

  /** Creates (or truncates) the report, failing early when the path cannot be written. */
  static async open(path: string): Promise<ReportFile> {
    const stream = createWriteStream(path);
    await new Promise<void>((resolve, reject) => {
      stream.once('open', () => resolve());
      stream.once('error', (error) =>
        reject(new UsageError(`cannot write the report ${path}: ${error.message}`)),
      );
    });
    stream.write(csvRow(['line', 'key', 'status', 'code', 'message']));
    return new ReportFile(stream);
  }

  write(outcomes: readonly ItemOutcome[]): void {
    for (const o of outcomes)
      this.stream.write(csvRow([String(o.line), o.key, o.status, o.code ?? '', o.message ?? '']));
  }

  /** Ends the file; later calls wait for the same end. */
  close(): Promise<void> {
    this.closing ??= new Promise((resolve) => this.stream.end(resolve));
    return this.closing;
  }
}
