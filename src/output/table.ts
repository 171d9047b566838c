/** Tables for a terminal, drawn with cli-table3 (imported only when a table is drawn). */
import { escapeLine } from './escape.js';

/** Renders rows under headers with light borders, as `gh` does, bold headers when coloured. */
export async function renderTable(headers: string[], rows: string[][], color: boolean): Promise<string> {
  const { default: Table } = await import('cli-table3');
  const table = new Table({
    head: headers.map(escapeLine).map((h) => (color ? `\u001b[1m${h}\u001b[22m` : h)),
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
  // One line per row, and nothing in a cell that a terminal would act on.
  for (const row of rows) table.push(row.map(escapeLine));
  return `${table
    .toString()
    .split('\n')
    .map((line) => line.trimEnd())
    .join('\n')}\n`;
}
