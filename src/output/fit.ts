/**
 * Tables that fit the terminal: columns that may go (a time, a second id) go first while even
 * the narrowest table would not fit; then the widest free-text columns shrink, their cells cut
 * with "…", until the table fits; ids are never cut. Pure, and apart from how a cell's text is
 * made (escaping is the cells' business), so any table can be fitted.
 */

/** Columns of padding between two columns (src/output/table.ts draws 2). */
const COLUMN_GAP = 2;
/** A shrinking column keeps at least this many characters (or its natural width, when less). */
const MIN_WIDTH = 8;
/** Wrapped prose narrower than this (a message, a reason) only once no column is left to leave out. */
const WRAP_MIN_WIDTH = 20;

/**
 * How a column kept whole may still grow narrower: free text wraps onto more lines at spaces
 * (a word longer than the column breaks after `_`, `-` or `/`, else anywhere); a command wraps
 * at spaces only, each line but the last ending in ` \` so that what is pasted still runs.
 */
export type Wrap = 'text' | 'command';

/** How each column may give way: shrink (free text), and when it may be left out (1 goes first). */
export interface ColumnGive {
  /** Per column: cut with "…" to fit (free text in a list, where one line a row matters). */
  shrinkable: readonly boolean[];
  /** Per column: never cut, wrapped onto more lines instead (what a row is for: issues, a command). */
  wrap?: readonly (Wrap | undefined)[];
  /** Per column, its turn to be left out when nothing else makes the table fit; undefined: never. */
  dropOrder?: readonly (number | undefined)[];
}

/** The table at most `width` wide: columns left out in turn while needed, then cut or wrapped. */
export function fitTable(
  headers: readonly string[],
  rows: readonly (readonly string[])[],
  width: number | undefined,
  give: ColumnGive,
): { headers: string[]; rows: string[][] } {
  let kept = headers.map((_, column) => column);
  if (width !== undefined && width > 0 && give.dropOrder) {
    const floors = headers.map((header, column) => {
      const cells = [header, ...rows.map((row) => row[column] ?? '')];
      const natural = Math.max(...cells.map(displayWidth));
      if (give.shrinkable[column]) return Math.min(natural, MIN_WIDTH);
      const wrap = give.wrap?.[column];
      // While columns can still be left out, a wrapped column keeps its words whole, and
      // prose a readable width.
      const floor =
        wrap === 'text' ? Math.max(wordFloor(cells, wrap), WRAP_MIN_WIDTH) : wordFloor(cells, 'command');
      return wrap ? Math.min(natural, floor) : natural;
    });
    const narrowest = (columns: number[]) =>
      columns.reduce((sum, column) => sum + floors[column], 0) + COLUMN_GAP * Math.max(0, columns.length - 1);
    const turns = kept
      .filter((column) => give.dropOrder?.[column] !== undefined)
      .sort((a, b) => (give.dropOrder?.[a] ?? 0) - (give.dropOrder?.[b] ?? 0));
    for (const column of turns) {
      if (narrowest(kept) <= width) break;
      kept = kept.filter((k) => k !== column);
    }
  }
  const pick = <T>(cells: readonly T[]) => kept.map((column) => cells[column]);
  return fitColumns(
    pick(headers),
    rows.map((row) => pick(row).map((cell) => cell ?? '')),
    width,
    kept.map((column) => give.shrinkable[column] ?? false),
    kept.map((column) => give.wrap?.[column]),
  );
}

/**
 * Rows (headers first) narrowed so the table is at most `width` wide: the cut columns first,
 * down to a few characters; then the wrapped ones, their words kept whole; then, if still too
 * wide, wrapped free text breaks inside words. Ids are neither cut nor wrapped: a table of them
 * that cannot fit stays wider than the terminal.
 */
export function fitColumns(
  headers: readonly string[],
  rows: readonly (readonly string[])[],
  width: number | undefined,
  shrinkable: readonly boolean[],
  wrap: readonly (Wrap | undefined)[] = [],
): { headers: string[]; rows: string[][] } {
  const cellsOf = (column: number) => [headers[column], ...rows.map((row) => row[column] ?? '')];
  const natural = headers.map((_, column) => Math.max(...cellsOf(column).map(displayWidth)));
  const widths = [...natural];
  if (width !== undefined && width > 0) {
    const total = () => widths.reduce((sum, w) => sum + w, 0) + COLUMN_GAP * Math.max(0, widths.length - 1);
    let excess = total() - width;
    const narrow = (floors: readonly (number | undefined)[]) => {
      while (excess > 0) {
        let widest = -1;
        for (const [column, w] of widths.entries()) {
          const floor = floors[column];
          if (floor !== undefined && w > floor && (widest < 0 || w > widths[widest])) widest = column;
        }
        if (widest < 0) return;
        widths[widest] -= 1;
        excess -= 1;
      }
    };
    const floor = (column: number, min: number) => Math.min(natural[column], min);
    narrow(headers.map((_, column) => (shrinkable[column] ? floor(column, MIN_WIDTH) : undefined)));
    narrow(
      headers.map((_, column) => {
        const kind = wrap[column];
        return kind ? floor(column, wordFloor(cellsOf(column), kind)) : undefined;
      }),
    );
    narrow(headers.map((_, column) => (wrap[column] === 'text' ? floor(column, MIN_WIDTH) : undefined)));
  }
  const narrowed = (cells: readonly string[]) =>
    cells.map((cell, column) => {
      if (widths[column] >= natural[column]) return cell;
      const kind = wrap[column];
      if (kind === 'command') return wrapCommand(cell, widths[column]);
      if (kind === 'text') return wrapText(cell, widths[column]);
      return truncate(cell, widths[column]);
    });
  return { headers: narrowed(headers), rows: rows.map(narrowed) };
}

/** The narrowest a wrapped column gets while its words stay whole: its longest word (and ` \` for a command). */
function wordFloor(cells: readonly string[], wrap: Wrap): number {
  const longest = Math.max(0, ...cells.flatMap((cell) => cell.split(' ').map(displayWidth)));
  return wrap === 'command' ? longest + 2 : Math.max(longest, 1);
}

/** `text` on lines at most `width` wide, broken at spaces; a longer word breaks after `_`, `-` or `/`, else anywhere. */
export function wrapText(text: string, width: number): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    const joined = line === '' ? word : `${line} ${word}`;
    if (displayWidth(joined) <= width) {
      line = joined;
      continue;
    }
    if (line !== '') lines.push(line);
    const pieces = breakWord(word, width);
    line = pieces.pop() ?? '';
    lines.push(...pieces);
  }
  lines.push(line);
  return lines.join('\n');
}

/** A word too long for `width` in pieces that fit, broken after `_`, `-` or `/` where one is near. */
function breakWord(word: string, width: number): string[] {
  const pieces: string[] = [];
  let rest = [...word];
  while (displayWidth(rest.join('')) > width) {
    let used = 0;
    let fits = 0;
    let soft = 0;
    for (const [at, char] of rest.entries()) {
      used += charWidth(char);
      if (used > width) break;
      fits = at + 1;
      if (char === '_' || char === '-' || char === '/') soft = at + 1;
    }
    const cut = soft > 0 ? soft : Math.max(fits, 1);
    pieces.push(rest.slice(0, cut).join(''));
    rest = rest.slice(cut);
  }
  pieces.push(rest.join(''));
  return pieces;
}

/**
 * A command on lines at most `width` wide, broken at spaces only; each line but the last ends
 * in ` \`, so the lines pasted into a shell are still the one command. A word is never broken.
 */
export function wrapCommand(command: string, width: number): string {
  const lines: string[] = [];
  let line = '';
  for (const word of command.split(' ')) {
    const joined = line === '' ? word : `${line} ${word}`;
    // Room for " \" unless this is the last word.
    if (line === '' || displayWidth(joined) + 2 <= width) {
      line = joined;
      continue;
    }
    lines.push(`${line} \\`);
    line = word;
  }
  // The last line needs no room for the continuation: take back what fits.
  if (lines.length > 0) {
    const last = lines[lines.length - 1].slice(0, -2);
    if (displayWidth(`${last} ${line}`) <= width) {
      lines.pop();
      line = `${last} ${line}`;
    }
  }
  lines.push(line);
  return lines.join('\n');
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
