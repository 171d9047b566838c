/** The CSV files svc writes for the user to keep or feed back to it (an undo file, saved shipments). */
import { FileError } from '../errors.js';
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
    throw new FileError(failure((error as Error).message));
  }
}
