/** Field paths (`buyer.country`) and the flat cells csv, tsv and tables are made of. */

/** The value at a dot path, or undefined when any step is missing. */
export function getPath(value: unknown, path: string): unknown {
  let current: unknown = value;
  for (const key of path.split('.')) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

/** Copies only the given dot paths into a new object of the same nesting (for --fields on json). */
export function pickPaths(value: unknown, paths: readonly string[]): Record<string, unknown> {
  const picked: Record<string, unknown> = {};
  for (const path of paths) {
    const found = getPath(value, path);
    if (found === undefined) continue;
    const keys = path.split('.');
    let target = picked;
    for (const key of keys.slice(0, -1)) {
      if (typeof target[key] !== 'object' || target[key] === null) target[key] = {};
      target = target[key] as Record<string, unknown>;
    }
    target[keys[keys.length - 1]] = found;
  }
  return picked;
}

/** Every leaf path of an object: nested objects as dot paths, arrays kept whole. */
export function leafPaths(value: Record<string, unknown>, prefix = ''): string[] {
  const paths: string[] = [];
  for (const [key, child] of Object.entries(value)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (child !== null && typeof child === 'object' && !Array.isArray(child)) {
      const nested = leafPaths(child as Record<string, unknown>, path);
      if (nested.length > 0) paths.push(...nested);
      else paths.push(path);
    } else {
      paths.push(path);
    }
  }
  return paths;
}

/** One cell's text: strings as they are, arrays and objects as JSON, absent as empty. */
export function cellText(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

/** Parses `--fields a,b.c` into a list, refusing empty names. */
export function parseFieldList(raw: string): string[] {
  const fields = raw
    .split(',')
    .map((field) => field.trim())
    .filter((field) => field.length > 0);
  if (fields.length === 0) throw new Error('--fields needs at least one field name, e.g. --fields id,status');
  return fields;
}
