/** How one kind of resource is shown: table columns for people, field paths for machines. */
import type { Wrap } from './fit.js';
import type { Query } from './query.js';
import type { TimeMode } from './time.js';

export type OutputFormat = 'table' | 'json' | 'ndjson' | 'csv' | 'tsv';
export const OUTPUT_FORMATS: readonly OutputFormat[] = ['table', 'json', 'ndjson', 'csv', 'tsv'];

/** One table column: a header and its cell, computed (`cell`) or a time shown as --time says (`time`). */
export interface Column<T> {
  header: string;
  cell?: (item: T, now: number) => string;
  time?: (item: T) => string | null | undefined;
  /** Free text that may be cut with "…" to fit the terminal (never an id). */
  shrink?: boolean;
  /**
   * What a row is for (its issues, the command to run): never cut; on a narrow terminal other
   * columns give way first, then it wraps onto more lines (a command with ` \` continuations).
   */
  wrap?: Wrap;
  /** Left out when every row's cell is empty (a field few items have). */
  hideEmpty?: boolean;
  /** Its turn (1 first) to be left out on a terminal too narrow for the table otherwise. */
  drop?: number;
}

/** Rows of an item's array field (an order's lines) in table, csv and tsv. */
interface PerLine {
  /** The array field: `lines`. */
  field: string;
  /** Its default columns, after the item's: `lines.sku`, `lines.quantity`… */
  fields: string[];
  /** A row per element even when no `lines.*` field is asked for (--per-line). */
  always?: boolean;
}

/** Per-noun presentation, kept beside the noun's schema use. */
export interface View<T> {
  /** Columns on a terminal. */
  columns: Column<T>[];
  /** Default csv/tsv field paths (API field names, nested as dot paths); empty: the first item's. */
  fields: string[];
  /** A row per element of an array field, when one of its fields is selected or asked for. */
  perLine?: PerLine;
  /**
   * What tables, csv and tsv show of an item, where that is less than the item (buyer personal
   * data without --show-buyer); json and ndjson carry the item as given.
   */
  hideInText?: (item: T) => T;
}

/** The settings that decide how results are written. */
export interface OutputSettings {
  format: OutputFormat;
  fields?: string[];
  quiet: boolean;
  color: boolean;
  now: number;
  /** --query, compiled. */
  query?: Query;
  /** False with --no-headers. */
  headers?: boolean;
  /** --time; unset, lists show relative times and detail views the timestamps as sent. */
  time?: TimeMode;
  /** Terminal columns, for tables that fit. */
  width?: number;
  /** Stdout is a terminal: JSON indented (and coloured with `color`) for lists as for items. */
  pretty?: boolean;
  /** Masks the key in use in table and detail cells before they are fitted (the boundary's). */
  redact?: (text: string) => string;
  /**
   * True once the run wrote with a test key: results then carry `simulated: true`, and
   * summaries say so (the service answers such writes in the same shape as live ones).
   */
  simulated?: () => boolean;
  /** --excel: csv that spreadsheets open as meant (a UTF-8 BOM; formula-shaped cells kept as text). */
  excel?: boolean;
  /** --decimal-comma: csv cells separated by `;`, decimals (numbers and money fields) written with `,`. */
  decimalComma?: boolean;
  /**
   * Every field path of what is printed (the command's schema), when --fields was given: csv and
   * tsv give a named object of known shape as its fields, one column each.
   */
  knownFields?: readonly string[];
  /**
   * No format was asked for and stdout is no terminal: one record prints as `field<TAB>value`
   * lines (lists stay tsv with a header row).
   */
  recordLines?: boolean;
}

/** The format in force: --json, then -o, then csv with --excel, then table on a terminal and tsv when piped. */
export function resolveFormat(
  options: { json?: boolean; output?: string; excel?: boolean },
  stdoutIsTTY: boolean,
): OutputFormat {
  if (options.json) return 'json';
  if (options.output) return options.output as OutputFormat;
  if (options.excel) return 'csv';
  return stdoutIsTTY ? 'table' : 'tsv';
}

/** Whether the format was chosen for a machine (--json, -o other than table, or --excel's csv). */
export function machineFormatChosen(options: { json?: boolean; output?: string; excel?: boolean }): boolean {
  return (
    Boolean(options.json) ||
    Boolean(options.excel) ||
    (options.output !== undefined && options.output !== 'table')
  );
}

/** Whether a table column of this field may shrink to fit: anything but an id. */
export function isShrinkableField(field: string): boolean {
  const key = field.slice(field.lastIndexOf('.') + 1);
  return key !== 'id' && !key.endsWith('_id');
}
