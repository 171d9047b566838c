/** RFC 4180 csv and plain tsv rows. */

/** One csv field, quoted only when it must be (comma, quote, CR or LF). */
export function csvField(text: string, delimiter: ',' | ';' = ','): string {
  const quote = delimiter === ';' ? /[";\r\n]/ : /[",\r\n]/;
  return quote.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/**
 * One csv record. On stdout it ends with LF, so a field read by the shell (`while read id`)
 * carries no stray `\r`; files written for spreadsheets (--report) pass CRLF, as RFC 4180 says.
 */
export function csvRow(
  cells: readonly string[],
  eol: '\n' | '\r\n' = '\n',
  delimiter: ',' | ';' = ',',
): string {
  return `${cells.map((cell) => csvField(cell, delimiter)).join(delimiter)}${eol}`;
}

/** Fields whose decimal strings are amounts (the API sends money as strings, never as numbers). */
const DECIMAL_FIELDS = new Set([
  'price',
  'msrp',
  'total',
  'compare_at_price',
  'amount',
  'vat_rate',
  'weight',
]);

/**
 * A cell as `--decimal-comma` writes it: a fractional number, or a decimal string in an amount
 * field (`price`, `lines.price`), with `,` for its point, so a comma-decimal spreadsheet reads a
 * number; any other cell as it is (a SKU "10.5" stays text).
 */
export function decimalCommaCell(value: unknown, field: string, text: string): string {
  if (typeof value === 'number') return Number.isInteger(value) ? text : text.replace('.', ',');
  const leaf = field.slice(field.lastIndexOf('.') + 1);
  if (typeof value === 'string' && DECIMAL_FIELDS.has(leaf) && /^-?[0-9]+\.[0-9]+$/.test(value))
    return value.replace('.', ',');
  return text;
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
