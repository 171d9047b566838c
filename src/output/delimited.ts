/** RFC 4180 csv and plain tsv rows. */

/** One csv field, quoted only when it must be (comma, quote, CR or LF). */
export function csvField(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/**
 * One csv record. On stdout it ends with LF, so a field read by the shell (`while read id`)
 * carries no stray `\r`; files written for spreadsheets (--report) pass CRLF, as RFC 4180 says.
 */
export function csvRow(cells: readonly string[], eol: '\n' | '\r\n' = '\n'): string {
  return `${cells.map(csvField).join(',')}${eol}`;
}

/** One tsv field: tabs, line breaks and backslashes become escapes so rows stay one line each. */
export function tsvField(cell: string): string {
  return cell
    .replaceAll('\\', '\\\\')
    .replaceAll('\t', '\\t')
    .replaceAll('\n', '\\n')
    .replaceAll('\r', '\\r');
}

/** One tsv record. */
export function tsvRow(cells: readonly string[]): string {
  return `${cells.map(tsvField).join('\t')}\n`;
}
