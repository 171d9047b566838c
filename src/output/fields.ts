/** Field paths (`buyer.country`) and the flat cells csv, tsv and tables are made of. */

/**
 * The value at a dot path, or undefined when any step is missing. A step into an array reads
 * that key of each element (`variants.sku` is every variant's SKU), as --fields means in json.
 */
export function getPath(value: unknown, path: string): unknown {
  return getKeys(value, path.split('.'));
}

function getKeys(value: unknown, keys: readonly string[]): unknown {
  if (keys.length === 0) return value;
  if (Array.isArray(value)) return value.map((element) => getKeys(element, keys));
  if (value === null || typeof value !== 'object') return undefined;
  return getKeys((value as Record<string, unknown>)[keys[0]], keys.slice(1));
}

/**
 * Copies only the given dot paths into a new object of the same nesting (for --fields on
 * json); inside an array each element keeps the rest of the path (`lines.sku`).
 */
export function pickPaths(value: unknown, paths: readonly string[]): Record<string, unknown> {
  return pickKeys(
    value,
    paths.map((path) => path.split('.')),
  ) as Record<string, unknown>;
}

function pickKeys(value: unknown, paths: readonly string[][]): unknown {
  if (Array.isArray(value)) return value.map((element) => pickKeys(element, paths));
  if (value === null || typeof value !== 'object') return value;
  const record = value as Record<string, unknown>;
  const picked: Record<string, unknown> = {};
  // Grouped by first key, in the order the paths name them.
  const byKey = new Map<string, string[][]>();
  for (const [key, ...rest] of paths) {
    const group = byKey.get(key) ?? [];
    group.push(rest);
    byKey.set(key, group);
  }
  for (const [key, rests] of byKey) {
    if (!(key in record) || record[key] === undefined) continue;
    const child = record[key];
    // A path that ends here keeps the whole value; longer ones pick inside it.
    if (rests.some((rest) => rest.length === 0)) picked[key] = child;
    else {
      const inner = pickKeys(child, rests);
      // Nothing found inside an object: the path is absent, as getPath would say.
      const empty =
        inner !== null &&
        typeof inner === 'object' &&
        !Array.isArray(inner) &&
        Object.keys(inner).length === 0;
      if (!empty) picked[key] = inner;
    }
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

/**
 * The csv and tsv columns of `fields`: a field naming an object whose shape `known` gives (the
 * schema's paths) becomes its leaf fields (`buyer.address` → `buyer.address.city`, …); an array
 * (in `first`, the first row), an open map (`attributes.*`) and an object of unknown shape stay
 * one column, written as JSON.
 */
export function flatColumns(fields: readonly string[], known: readonly string[], first: unknown): string[] {
  return fields.flatMap((field) => {
    if (Array.isArray(getPath(first, field)) || known.includes(`${field}.*`)) return [field];
    const below = known.filter((path) => path.startsWith(`${field}.`) && !path.endsWith('.*'));
    const leaves = below.filter(
      (path) => known.includes(`${path}.*`) || !below.some((other) => other.startsWith(`${path}.`)),
    );
    return leaves.length > 0 ? leaves : [field];
  });
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
