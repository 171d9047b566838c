/**
 * Files for people open in spreadsheets, which run a cell that starts like a formula: a SKU
 * `=HYPERLINK("http://…")` from a feed would come back as a live link. The rule that keeps such
 * cells text is here once, for `--report` and for csv written with `--excel`.
 */

/** Characters a spreadsheet reads as the start of a formula (or that hide one after them). */
const FORMULA_START = /^[=+\-@\t\r]/;

/** The cell as a spreadsheet shows it as text: prefixed with `'` when it would start a formula. */
export function spreadsheetCell(cell: string): string {
  return FORMULA_START.test(cell) ? `'${cell}` : cell;
}
