/** RFC 4180 csv and plain tsv rows. */

/** One csv field, quoted only when it must be (comma, quote, CR or LF). */
export function csvField(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One csv record, CRLF-terminated as RFC 4180 says. */
export function csvRow(cells: readonly string[]): string {
  return `${cells.map(csvField).join(',')}\r\n`;
}

/** One tsv record; tabs and line breaks inside a cell become escapes so rows stay one line each. */
export function tsvRow(cells: readonly string[]): string {
  return `${cells.map((cell) => cell.replaceAll('\\', '\\\\').replaceAll('\t', '\\t').replaceAll('\n', '\\n').replaceAll('\r', '\\r')).join('\t')}\n`;
}
