/**
 * One record for a pipe, as `gh` prints one: a `field<TAB>value` line per field, nested objects
 * flattened to dot paths, lists as comma-joined values (docs/guide.md, Output). `cut -f2`
 * gives the values, `grep quota` the quota line.
 */
import { cellText } from './fields.js';

/** The field-value pairs of `record`, in its own order (the order of its detail view). */
export function recordPairs(record: unknown, fields?: readonly string[]): [string, string][] {
  if (fields) return fields.map((field) => [field, valueText(valueAt(record, field))]);
  const pairs: [string, string][] = [];
  flatten(record, '', pairs);
  return pairs;
}

function flatten(value: unknown, path: string, pairs: [string, string][]): void {
  if (isObject(value)) {
    const entries = Object.entries(value);
    if (entries.length === 0 && path) pairs.push([path, '']);
    for (const [key, child] of entries) flatten(child, path ? `${path}.${key}` : key, pairs);
    return;
  }
  // A list of objects: one line per field of its elements, each the elements' values joined.
  if (Array.isArray(value) && value.length > 0 && value.every(isObject)) {
    const inner: [string, string][] = [];
    for (const element of value) flatten(element, '', inner);
    const keys = [...new Set(inner.map(([key]) => key))];
    for (const key of keys) pairs.push([`${path}.${key}`, valueText(valueAt(value, key))]);
    return;
  }
  pairs.push([path, valueText(value)]);
}

/** The value at a dot path; inside a list, each element's. */
function valueAt(value: unknown, path: string): unknown {
  let at: unknown = value;
  for (const key of path.split('.')) {
    if (Array.isArray(at)) at = at.map((element) => (isObject(element) ? element[key] : undefined));
    else if (isObject(at)) at = at[key];
    else return undefined;
  }
  return at;
}

/** A value as one cell: lists comma-joined (nested ones too), objects as JSON, absent as empty. */
function valueText(value: unknown): string {
  if (Array.isArray(value)) return value.map((element) => valueText(element)).join(',');
  return cellText(value);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
