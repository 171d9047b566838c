/** The CSV files svc writes for the user to keep or feed back to it (an undo file, saved shipments). */
import { FileError, FileIncomplete, isShortWrite, writeFailureReason } from '../errors.js';
import { writeFileWhole } from '../write-whole.js';
import { csvRow } from './delimited.js';

/**
 * Writes `rows` (the header first) to `path` whole or not at all. A file, like --report: CRLF,
 * as RFC 4180 says (CSV on stdout ends its lines with LF). `failure` words the one-line error
 * from the system's reason.
 */
export function writeCsvFile(
  path: string,
  rows: readonly (readonly string[])[],
  failure: (reason: string) => string,
): void {
  try {
    writeFileWhole(path, rows.map((cells) => csvRow(cells, '\r\n')).join(''));
  } catch (error) {
    // No room left is a file svc could not write whole (exit 1); a bad path is the user's to fix (exit 2).
    if (isShortWrite(error)) throw new FileIncomplete(failure(writeFailureReason(error)));
    throw new FileError(failure((error as Error).message));
  }
}
