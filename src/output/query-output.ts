/**
 * What a --query result looks like printed: JSON, or, when it is a list of scalars or of flat
 * objects (or one scalar), in the chosen format, so `--query "[].id" -o tsv` gives one id a line.
 */
import type { OutputFormat } from './view.js';

/** The result's shape, as printing needs it. */
export type ResultShape =
  | { kind: 'scalar'; value: string | number | boolean | null }
  | { kind: 'scalars'; values: Array<string | number | boolean | null> }
  | { kind: 'records'; columns: string[]; records: Array<Record<string, unknown>> }
  | { kind: 'json'; value: unknown };

/** Sorts a query result into the shapes the formats print differently. */
export function resultShape(value: unknown, format: OutputFormat): ResultShape {
  if (format === 'json' || format === 'ndjson') return { kind: 'json', value };
  if (isScalar(value)) return { kind: 'scalar', value };
  if (Array.isArray(value) && value.every(isScalar)) return { kind: 'scalars', values: value };
  if (Array.isArray(value) && value.length > 0 && value.every(isFlatRecord)) {
    const columns = [...new Set(value.flatMap((record) => Object.keys(record)))];
    return { kind: 'records', columns, records: value };
  }
  return { kind: 'json', value };
}

function isScalar(value: unknown): value is string | number | boolean | null {
  return value === null || ['string', 'number', 'boolean'].includes(typeof value);
}

/** An object whose values are scalars, or lists of scalars (a cell holds those as JSON). */
function isFlatRecord(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  return Object.values(value).every((v) => isScalar(v) || (Array.isArray(v) && v.every(isScalar)));
}
