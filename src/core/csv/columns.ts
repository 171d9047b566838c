/**
 * Every column of a CSV header accounted for: which column each field is read from, which
 * are left out, and the refusals that keep a file from being read other than as meant (a
 * duplicate header; an ignored column that looks like a field no column is read as, such
 * as `Qty` beside `SKU` and `Price`, whose quantities would be silently skipped; one column
 * read as two fields).
 */
import { type InputProblem, UsageError } from '../../errors.js';

/** A field a file may give. */
export interface FieldSpec {
  field: string;
  /** Words that, in an ignored column's header, suggest it holds this field (`qty`, `stock`). */
  lookalikes?: readonly string[];
  /**
   * Headers read as this field when no column bears its name (`Qty`, `Bestand`, `Order Number`),
   * compared by `aliasKey`; the plan line says which column was read as what.
   */
  aliases?: readonly string[];
}

/** How the columns are read. */
export interface ColumnOptions {
  /** field → header name (`--map quantity=Qty`), compared as `headerKey` says. */
  map?: Readonly<Record<string, string>>;
  /** Header names meant to be left out (`--ignore`): never read, even one named as a field. */
  ignore?: readonly string[];
  /** Whether the command has `--map` to suggest (else renaming the column is the way). */
  mappable: boolean;
  /** What a header name is compared by; default trimmed and lower-cased (`exactHeaderKey`). */
  headerKey?: (name: string) => string;
}

/** Which column each field is read from, and the columns left out, as the header writes them. */
export interface ColumnPlan {
  indexes: Record<string, number | undefined>;
  used: { field: string; header: string }[];
  ignored: string[];
}

/** A header name as most files compare it: trimmed, any case. */
export function exactHeaderKey(name: string): string {
  return name.trim().toLowerCase();
}

/** A header name compared ignoring case, spaces and underscores (`Order ID` is `order_id`). */
export function looseHeaderKey(name: string): string {
  return name.toLowerCase().replace(/[\s_]+/g, '');
}

/** A header as aliases compare it: any case, without spaces, underscores, hyphens and dots (`Order No.`). */
function aliasKey(name: string): string {
  return name.toLowerCase().replace(/[\s_.-]+/g, '');
}

/** Reads the header row as the guide's input files say; UsageError (exit 2) naming what is wrong. */
export function planColumns(
  header: string[],
  fields: readonly FieldSpec[],
  options: ColumnOptions,
): ColumnPlan {
  const key = options.headerKey ?? exactHeaderKey;
  const written = header.map((cell, index) => cell.trim() || `(column ${index + 1}, no name)`);
  const names = header.map(key);
  const listed = () => written.map((name) => `"${name}"`).join(', ');

  const firstAt = columnsByName(header, key);

  const ignore = new Set((options.ignore ?? []).map(key));
  for (const name of options.ignore ?? []) {
    if (!firstAt.has(key(name)))
      throw new UsageError(`--ignore "${name.trim()}": no such column; the header has ${listed()}`);
  }

  const indexes: Record<string, number | undefined> = {};
  const used: ColumnPlan['used'] = [];
  for (const { field } of fields) {
    const asked = options.map?.[field];
    const mapped = asked === undefined ? undefined : key(asked);
    const found = firstAt.get(mapped ?? key(field));
    if (mapped !== undefined && found === undefined) {
      throw new UsageError(
        `line 1: no "${asked?.trim()}" column (--map ${field}=${asked}); the header has ${listed()}`,
      );
    }
    if (found !== undefined && ignore.has(names[found])) {
      // An ignored column is never read: one mapped as well says two things at once.
      if (mapped !== undefined)
        throw new UsageError(
          `--ignore "${written[found]}" and --map ${field}=${asked} name the same column; keep the one meant`,
        );
      indexes[field] = undefined;
      continue;
    }
    const index = found;
    const other = Object.keys(indexes).find((name) => index !== undefined && indexes[name] === index);
    if (other) {
      throw new UsageError(
        `line 1: the column "${written[index as number]}" would be read as both ${other} and ${field}; map each field to a column of its own`,
      );
    }
    indexes[field] = index;
    if (index !== undefined) used.push({ field, header: written[index] });
  }

  readAliases(fields, written, indexes, used, ignore, names, options.mappable);
  const usedIndexes = new Set(Object.values(indexes));
  const ignored = written.filter((_, index) => !usedIndexes.has(index));
  for (const { field, lookalikes } of fields) {
    if (indexes[field] !== undefined || !lookalikes) continue;
    const suspect = written.findIndex(
      (name, index) => !usedIndexes.has(index) && !ignore.has(names[index]) && looksLike(name, lookalikes),
    );
    if (suspect < 0) continue;
    const name = written[suspect];
    const use = options.mappable ? `use --map ${field}=${quoted(name)}` : `rename it to ${field}`;
    throw new UsageError(
      `line 1: the column "${name}" looks like ${field}, but no column is read as ${field}, so it would be left out; ${use}, or --ignore ${quoted(name)} if it is meant to be left out`,
    );
  }
  return { indexes, used, ignored };
}

/**
 * Each field no column is read as, from the one column whose header is one of its aliases;
 * UsageError when two columns could be it, naming both and the --map that picks one.
 */
function readAliases(
  fields: readonly FieldSpec[],
  written: readonly string[],
  indexes: Record<string, number | undefined>,
  used: ColumnPlan['used'],
  ignore: ReadonlySet<string>,
  names: readonly string[],
  mappable: boolean,
): void {
  for (const { field, aliases } of fields) {
    if (indexes[field] !== undefined || !aliases) continue;
    const keys = new Set(aliases.map(aliasKey));
    const taken = new Set(Object.values(indexes));
    const candidates = written
      .map((name, index) => ({ name, index }))
      .filter(
        ({ name, index }) => !taken.has(index) && !ignore.has(names[index]) && keys.has(aliasKey(name)),
      );
    if (candidates.length > 1) {
      const [first, second] = candidates.map(({ name }) => name);
      const pick = mappable
        ? `pick one with --map ${field}=${quoted(first)} (or --ignore ${quoted(second)})`
        : `rename the one meant to ${field}`;
      throw new UsageError(`line 1: both "${first}" and "${second}" could be read as ${field}; ${pick}`);
    }
    const [found] = candidates;
    if (!found) continue;
    indexes[field] = found.index;
    used.push({ field, header: found.name });
  }
}

/**
 * A record with more filled cells than the header has columns: a value holding the delimiter
 * without quotes (`1,299.00`) shifted the cells after it, so the row cannot be read as meant.
 * Empty cells past the header (as spreadsheets add) are no shift.
 */
export function extraCellsProblem(
  record: readonly string[],
  width: number,
  line: number,
): InputProblem | undefined {
  if (record.length <= width || record.slice(width).every((cell) => cell.trim() === '')) return undefined;
  return {
    line,
    code: 'extra_cells',
    message: `${record.length} cells where the header has ${width}: a value holding the delimiter (such as 1,299.00) must be in quotes, or the cells after it are read as the wrong columns`,
  };
}

/**
 * Parses `--map field=Header,…` into field → header name as given, for the fields a file
 * has; UsageError naming `example` for a pair that is not one.
 */
export function parseColumnMap(
  raw: string | undefined,
  fields: readonly string[],
  example: string,
): Record<string, string> {
  const map: Record<string, string> = {};
  if (!raw) return map;
  for (const pair of raw.split(',')) {
    const at = pair.indexOf('=');
    const field = (at < 0 ? pair : pair.slice(0, at)).trim().toLowerCase();
    const header = at < 0 ? '' : pair.slice(at + 1).trim();
    if (!fields.includes(field) || !header) {
      throw new UsageError(
        `--map takes field=Header pairs for ${fields.join(', ')}, e.g. --map ${example}; got "${pair}"`,
      );
    }
    const earlier = map[field];
    if (earlier !== undefined)
      throw new UsageError(
        `--map names ${field} twice ("${earlier.toLowerCase()}" and "${header.toLowerCase()}"); keep the one meant`,
      );
    map[field] = header;
  }
  return map;
}

/** `--ignore Note,Qty2`: header names meant to be left out. */
export function parseIgnoredColumns(raw: string | undefined): string[] {
  return (raw ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
}

/**
 * Each header name (as `key` compares it) and its column; UsageError when a name appears
 * twice, since either column could be the one read.
 */
export function columnsByName(
  header: readonly string[],
  key: (name: string) => string = exactHeaderKey,
): Map<string, number> {
  const firstAt = new Map<string, number>();
  header.forEach((cell, index) => {
    const name = key(cell);
    if (name === '') return;
    const first = firstAt.get(name);
    if (first !== undefined) {
      throw new UsageError(
        `line 1: the column "${cell.trim()}" appears twice (columns ${first + 1} and ${index + 1}); rename or remove one, so that it is clear which is read`,
      );
    }
    firstAt.set(name, index);
  });
  return firstAt;
}

/** "sku from \"Item\", quantity; ignoring \"Note\"", for the plan line. */
export function describeColumns(plan: ColumnPlan): string {
  const used = plan.used
    .map(({ field, header }) => (header.toLowerCase() === field ? field : `${field} from "${header}"`))
    .join(', ');
  const ignored =
    plan.ignored.length > 0 ? `; ignoring ${plan.ignored.map((name) => `"${name}"`).join(', ')}` : '';
  return `${used}${ignored}`;
}

/**
 * `--map field=Col,…` naming, for each field no column is read as, a column left out whose
 * header looks like it (`order_id='Order Number'`), or undefined when some field has none.
 */
export function mapSuggestion(
  header: readonly string[],
  plan: ColumnPlan,
  missing: readonly FieldSpec[],
): string | undefined {
  const taken = new Set<string>();
  const pairs: string[] = [];
  for (const { field, lookalikes } of missing) {
    const column = plan.ignored.find(
      (name) => !taken.has(name) && lookalikes !== undefined && looksLike(name, lookalikes),
    );
    if (column === undefined || !header.some((cell) => cell.trim() === column)) return undefined;
    taken.add(column);
    pairs.push(`${field}=${quoted(column)}`);
  }
  return pairs.length > 0 ? `--map ${pairs.join(',')}` : undefined;
}

/** True when a header's words (split at case changes and punctuation) include one of `words`. */
function looksLike(header: string, words: readonly string[]): boolean {
  const tokens = header
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z]+/)
    .filter(Boolean);
  const candidates = new Set([...tokens, tokens.join(''), tokens.join('_')]);
  return words.some((word) => candidates.has(word));
}

/** A header as one shell word. */
export function quoted(name: string): string {
  return /^[\w.-]+$/.test(name) ? name : `'${name.replace(/'/g, "'\\''")}'`;
}
