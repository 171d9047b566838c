/** One resource on a terminal: `key  value` lines aligned on the longest key, lists of objects as small tables. */
import { escapeLine } from './escape.js';
import { cellText, getPath, leafPaths } from './fields.js';
import { renderTable } from './table.js';
import { formatTime, isTimeField, type TimeMode } from './time.js';
import { isShrinkableField } from './view.js';

/** How a detail view is drawn. */
export interface DetailOptions {
  color: boolean;
  now: number;
  /** --time when given; unset, times show as sent. */
  time?: TimeMode;
  width?: number;
  /** Masks secrets in a value before it is fitted. */
  redact?: (text: string) => string;
}

/** Scalars and nested objects as aligned `key  value` lines (nested keys as dot paths), then the tables. */
export async function renderDetail(record: Record<string, unknown>, options: DetailOptions): Promise<string> {
  const pairs: Array<[string, string]> = [];
  const tables: string[] = [];
  // Nothing from the service drives the terminal: control characters shown escaped.
  const redact = options.redact ?? ((value: string) => value);
  const text = (path: string, value: unknown) =>
    escapeLine(
      redact(
        options.time && isTimeField(path) && typeof value === 'string'
          ? formatTime(value, options.time, options.now)
          : cellText(value),
      ),
    );
  for (const [key, value] of Object.entries(record)) {
    if (Array.isArray(value) && value.length > 0 && value.every((v) => v && typeof v === 'object')) {
      const columns = [...new Set(value.flatMap((v) => leafPaths(v as Record<string, unknown>)))];
      const rows = value.map((v) => columns.map((c) => text(c, getPath(v, c))));
      // A detail view is where one goes to read: its cells wrap, never cut; ids stay whole.
      const table = await renderTable(columns, rows, options.color, {
        width: options.width,
        wrap: columns.map((column) => (isShrinkableField(column) ? 'text' : undefined)),
      });
      tables.push(`\n${escapeLine(key)}:\n${table}`);
    } else if (value && typeof value === 'object' && !Array.isArray(value)) {
      for (const path of leafPaths(value as Record<string, unknown>)) {
        pairs.push([escapeLine(`${key}.${path}`), text(path, getPath(value, path))]);
      }
    } else {
      pairs.push([escapeLine(key), text(key, value)]);
    }
  }
  // Aligned on the longest key, nested ones included (buyer.address.postal_code).
  const width = Math.max(0, ...pairs.map(([key]) => key.length));
  const lines = pairs.map(([key, value]) => `${key.padEnd(width)}  ${value}`.trimEnd());
  return `${lines.join('\n')}\n${tables.join('')}`;
}
