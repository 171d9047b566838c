/** How one kind of resource is shown: table columns for people, field paths for machines. */

export type OutputFormat = 'table' | 'json' | 'ndjson' | 'csv' | 'tsv';
export const OUTPUT_FORMATS: readonly OutputFormat[] = ['table', 'json', 'ndjson', 'csv', 'tsv'];

/** One table column: a header and how to compute its cell. */
export interface Column<T> {
  header: string;
  cell: (item: T, now: number) => string;
}

/** Per-noun presentation, kept beside the noun's schema use. */
export interface View<T> {
  /** Columns on a terminal. */
  columns: Column<T>[];
  /** Default csv/tsv field paths (API field names, nested as dot paths); empty: the first item's. */
  fields: string[];
  /** csv/tsv rows of one item; orders make one per line. Default: the item itself. */
  rows?: (item: T) => unknown[];
  /** Drops what must not appear by default (buyer personal data) from json and ndjson. */
  redact?: (item: T) => T;
}

/** The settings that decide how results are written. */
export interface OutputSettings {
  format: OutputFormat;
  fields?: string[];
  quiet: boolean;
  color: boolean;
  now: number;
}

/** The format in force: --json, then -o, then table on a terminal and tsv when piped. */
export function resolveFormat(
  options: { json?: boolean; output?: string },
  stdoutIsTTY: boolean,
): OutputFormat {
  if (options.json) return 'json';
  if (options.output) return options.output as OutputFormat;
  return stdoutIsTTY ? 'table' : 'tsv';
}

/** "3m", "5h", "2d": how long ago a timestamp was, for tables. */
export function age(timestamp: string | null | undefined, now: number): string {
  if (!timestamp) return '';
  const seconds = Math.max(0, Math.round((now - Date.parse(timestamp)) / 1000));
  if (Number.isNaN(seconds)) return timestamp;
  if (seconds < 60) return `${seconds}s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)}m`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)}h`;
  return `${Math.floor(seconds / 86_400)}d`;
}
