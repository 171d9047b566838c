/**
 * Tables that fit the terminal: columns that may go (a time, a second id) go first while even
 * the narrowest table would not fit; then the widest free-text columns shrink, their cells cut
 * with "…", until the table fits; ids are never cut. Pure, and apart from how a cell's text is
 * made (escaping is the cells' business), so any table can be fitted.
 */

/** Columns of padding between two columns (src/output/table.ts draws 2). */
export const COLUMN_GAP = 2;
/** A shrinking column keeps at least this many characters (or its natural width, when less). */
const MIN_WIDTH = 8;

/** How each column may give way: shrink (free text), and when it may be left out (1 goes first). */
export interface ColumnGive {
  shrinkable: readonly boolean[];
  /** Per column, its turn to be left out when nothing else makes the table fit; undefined: never. */
  dropOrder?: readonly (number | undefined)[];
}

/** The table at most `width` wide: columns left out in turn while needed, then cut. */
export function fitTable(
  headers: readonly string[],
  rows: readonly (readonly string[])[],
  width: number | undefined,
  give: ColumnGive,
): { headers: string[]; rows: string[][] } {
  let kept = headers.map((_, column) => column);
  if (width !== undefined && width > 0 && give.dropOrder) {
    const natural = headers.map((header, column) =>
      Math.max(displayWidth(header), ...rows.map((row) => displayWidth(row[column] ?? ''))),
    );
    const narrowest = (columns: number[]) =>
      columns.reduce(
        (sum, column) =>
          sum + (give.shrinkable[column] ? Math.min(natural[column], MIN_WIDTH) : natural[column]),
        0,
      ) +
      COLUMN_GAP * Math.max(0, columns.length - 1);
    const turns = kept
      .filter((column) => give.dropOrder?.[column] !== undefined)
      .sort((a, b) => (give.dropOrder?.[a] ?? 0) - (give.dropOrder?.[b] ?? 0));
    for (const column of turns) {
      if (narrowest(kept) <= width) break;
      kept = kept.filter((k) => k !== column);
    }
  }
  const pick = (cells: readonly string[]) => kept.map((column) => cells[column] ?? '');
  return fitColumns(
    pick(headers),
    rows.map(pick),
    width,
    kept.map((column) => give.shrinkable[column] ?? false),
  );
}

/** Rows (headers first) whose shrinkable columns are cut so the table is at most `width` wide. */
export function fitColumns(
  headers: readonly string[],
  rows: readonly (readonly string[])[],
  width: number | undefined,
  shrinkable: readonly boolean[],
): { headers: string[]; rows: string[][] } {
  const natural = headers.map((header, column) =>
    Math.max(displayWidth(header), ...rows.map((row) => displayWidth(row[column] ?? ''))),
  );
  const widths = [...natural];
  const total = () => widths.reduce((sum, w) => sum + w, 0) + COLUMN_GAP * Math.max(0, widths.length - 1);
  if (width !== undefined && width > 0) {
    let excess = total() - width;
    while (excess > 0) {
      let widest = -1;
      for (const [column, w] of widths.entries()) {
        const floor = Math.min(natural[column], MIN_WIDTH);
        if (shrinkable[column] && w > floor && (widest < 0 || w > widths[widest])) widest = column;
      }
      if (widest < 0) break;
      widths[widest] -= 1;
      excess -= 1;
    }
  }
  const cut = (cells: readonly string[]) =>
    cells.map((cell, column) => (widths[column] < natural[column] ? truncate(cell, widths[column]) : cell));
  return { headers: cut(headers), rows: rows.map(cut) };
}

/** `text` cut to `width` columns, ending in "…" when it was cut. */
export function truncate(text: string, width: number): string {
  if (displayWidth(text) <= width) return text;
  let kept = '';
  let used = 0;
  for (const char of text) {
    const w = charWidth(char);
    if (used + w > width - 1) break;
    kept += char;
    used += w;
  }
  return `${kept}…`;
}

/** Terminal columns `text` takes: wide East Asian characters 2, combining marks 0. */
export function displayWidth(text: string): number {
  let width = 0;
  for (const char of text) width += charWidth(char);
  return width;
}

function charWidth(char: string): number {
  const code = char.codePointAt(0) ?? 0;
  if (code < 32 || (code >= 0x7f && code < 0xa0)) return 0;
  if (/\p{Mn}|\p{Me}|\u200b|\u200d/u.test(char)) return 0;
  return isWide(code) ? 2 : 1;
}

function isWide(code: number): boolean {
  return (
    (code >= 0x1100 && code <= 0x115f) ||
    (code >= 0x2e80 && code <= 0xa4cf && code !== 0x303f) ||
    (code >= 0xac00 && code <= 0xd7a3) ||
    (code >= 0xf900 && code <= 0xfaff) ||
    (code >= 0xfe30 && code <= 0xfe4f) ||
    (code >= 0xff00 && code <= 0xff60) ||
    (code >= 0xffe0 && code <= 0xffe6) ||
    (code >= 0x1f300 && code <= 0x1faff) ||
    (code >= 0x20000 && code <= 0x3fffd)
  );
}
