/** Tables for a terminal, drawn with cli-table3 (imported only when a table is drawn). */
import { escapeLine } from './escape.js';
import { fitTable, type Wrap } from './fit.js';

/** How a table is laid out beyond its cells. */
export interface TableLayout {
  /** Terminal columns to fit in (undefined: as wide as the cells make it). */
  width?: number;
  /** Per column: whether it may shrink to fit (free text; never ids). */
  shrinkable?: readonly boolean[];
  /** Per column: kept whole and wrapped onto more lines when narrowed (text or a command). */
  wrap?: readonly (Wrap | undefined)[];
  /** Per column: its turn to be left out when the table cannot fit otherwise (1 first). */
  dropOrder?: readonly (number | undefined)[];
  /** False with --no-headers. */
  headers?: boolean;
}

/** Renders rows under headers with light borders, as `gh` does, bold headers when coloured. */
export async function renderTable(
  headers: string[],
  rows: string[][],
  color: boolean,
  layout: TableLayout = {},
): Promise<string> {
  const { default: Table } = await import('cli-table3');
  // Nothing in a cell that a terminal would act on; fitted as shown (a wrapped cell gets its own lines).
  const oneLine = rows.map((row) => row.map(escapeLine));
  const fitted = fitTable(headers.map(escapeLine), oneLine, layout.width, {
    shrinkable: layout.shrinkable ?? headers.map(() => false),
    wrap: layout.wrap,
    dropOrder: layout.dropOrder,
  });
  const table = new Table({
    head: layout.headers === false ? [] : fitted.headers.map((h) => (color ? `\u001b[1m${h}\u001b[22m` : h)),
    style: { head: [], border: [], compact: true, 'padding-left': 0, 'padding-right': 2 },
    chars: {
      top: '',
      'top-mid': '',
      'top-left': '',
      'top-right': '',
      bottom: '',
      'bottom-mid': '',
      'bottom-left': '',
      'bottom-right': '',
      left: '',
      'left-mid': '',
      mid: '',
      'mid-mid': '',
      right: '',
      'right-mid': '',
      middle: '',
    },
  });
  for (const row of fitted.rows) table.push(row);
  return `${table
    .toString()
    .split('\n')
    .map((line) => line.trimEnd())
    .join('\n')}\n`;
}
