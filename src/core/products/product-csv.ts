/**
 * The CSV layout of `products upsert`: one row per variant, rows grouped into products by
 * `handle` (or by `title` when there is no handle column). Product columns may repeat on
 * every row of a product or be left empty after its first row; variant columns are per row.
 */
import { type InputProblem, UsageError } from '../../errors.js';
import { plural } from '../../words.js';
import { columnsByName, extraCellsProblem } from '../csv/columns.js';
import { CsvFile } from '../csv/reader.js';
import type { TextEncoding } from '../csv/text.js';

/** Product-level columns, named as the API names the fields (nested ones as dot paths). */
const PRODUCT_COLUMNS = [
  'handle',
  'title',
  'description',
  'brand',
  'category',
  'short_description',
  'vat_rate',
  'mpn',
  'currency',
  'status',
  'tags',
  'images',
  'weight.value',
  'weight.unit',
  'dimensions.length',
  'dimensions.width',
  'dimensions.height',
  'dimensions.unit',
] as const;

/** Variant-level columns; `options.<Name>` columns come on top (one per option). */
const VARIANT_COLUMNS = [
  'sku',
  'variant_title',
  'price',
  'msrp',
  'quantity',
  'barcode',
  'grams',
  'asin',
] as const;

/** The separator of several values in one cell (tags, image URLs). */
const LIST_SEPARATOR = '|';

/** One product read from the file, before the schema check. */
export interface RawProduct {
  /** Line of its first row. */
  line: number;
  /** Line of each variant's row, in variant order. */
  variantLines: number[];
  /** The handle (or title) that grouped its rows. */
  handle: string;
  /** Its place in a JSON array (1-based), when it shares its line with other products. */
  item?: number;
  body: Record<string, unknown>;
}

/** A problem tied to a physical line. */
export type LineProblem = InputProblem;

/** Products read from a file, the bad lines found on the way, and the lines that are not valid text. */
export interface ProductsRead {
  products: RawProduct[];
  problems: LineProblem[];
  encodingProblems: LineProblem[];
}

interface Columns {
  byName: Map<string, number>;
  options: { name: string; index: number }[];
  /** Cells in the header row. */
  width: number;
}

interface Group {
  line: number;
  handle: string;
  fields: Map<string, { value: string; line: number }>;
  variants: { line: number; body: Record<string, unknown> }[];
}

/** Reads the whole CSV into products; bad lines come back as problems, never thrown. */
export async function readProductCsv(path: string, encoding: TextEncoding = 'utf-8'): Promise<ProductsRead> {
  const csv = await CsvFile.open(path, { encoding });
  const problems: LineProblem[] = [];
  const groups = new Map<string, Group>();
  let columns: Columns | undefined;
  // Lines where a cell svc reads holds text that did not decode: only there do bad bytes stop the run.
  const badCells = new Set<number>();
  for await (const { record, line } of csv.records()) {
    if (!columns) {
      columns = resolveColumns(record);
      continue;
    }
    markUndecoded(record, line, columns, badCells);
    readRow(record, line, columns, groups, problems);
  }
  if (!columns)
    throw new UsageError(`${path} is empty: it needs a header row (see svc products upsert --help)`);
  const encodingProblems = (await csv.encodingProblems()).filter((problem) => badCells.has(problem.line));
  return { products: [...groups.values()].map(toProduct), problems, encodingProblems };
}

/**
 * Notes the physical lines of a record whose used cells hold U+FFFD, which bytes that are not
 * UTF-8 leave: bad bytes in a column svc ignores (an unnamed one, or cells past the header) are
 * not its business.
 */
function markUndecoded(record: string[], line: number, columns: Columns, lines: Set<number>): void {
  const used = [...columns.byName.values(), ...columns.options.map((option) => option.index)];
  if (!used.some((index) => record[index]?.includes('\uFFFD'))) return;
  const spanned = record.join('').split(/\r\n|\n|\r/).length;
  for (let at = 0; at < spanned; at++) lines.add(line + at);
}

function resolveColumns(header: string[]): Columns {
  columnsByName(header);
  const byName = new Map<string, number>();
  const options: { name: string; index: number }[] = [];
  const unknown: string[] = [];
  const known = new Set<string>([...PRODUCT_COLUMNS, ...VARIANT_COLUMNS]);
  header.forEach((raw, index) => {
    const text = raw.trim();
    const name = text.toLowerCase();
    if (name.startsWith('options.') && text.length > 'options.'.length)
      options.push({ name: text.slice(8), index });
    else if (known.has(name)) byName.set(name, index);
    else if (name !== '') unknown.push(`"${text}"`);
  });
  if (unknown.length > 0) {
    throw new UsageError(
      `line 1: unknown ${plural(unknown.length, 'column')} ${unknown.join(', ')}; columns are ${[...known].join(', ')} and options.<Name> (see svc products upsert --help)`,
    );
  }
  if (!byName.has('title'))
    throw new UsageError('line 1: the header needs a "title" column (see svc products upsert --help)');
  return { byName, options, width: header.length };
}

function readRow(
  record: string[],
  line: number,
  columns: Columns,
  groups: Map<string, Group>,
  problems: LineProblem[],
): void {
  const shifted = extraCellsProblem(record, columns.width, line);
  if (shifted) {
    problems.push(shifted);
    return;
  }
  const cell = (name: string) => {
    const index = columns.byName.get(name);
    return index === undefined ? '' : (record[index] ?? '').trim();
  };
  const grouping = columns.byName.has('handle') ? 'handle' : 'title';
  const handle = cell(grouping);
  if (handle === '') {
    problems.push({ line, message: `no ${grouping}: every row names the product it belongs to` });
    return;
  }
  let group = groups.get(handle);
  if (!group) {
    group = { line, handle, fields: new Map(), variants: [] };
    groups.set(handle, group);
  }
  for (const name of PRODUCT_COLUMNS) {
    const value = cell(name);
    if (name === 'handle' || value === '') continue;
    const seen = group.fields.get(name);
    if (!seen) group.fields.set(name, { value, line });
    else if (seen.value !== value) {
      problems.push({
        line,
        message: `${name} "${value}" differs from "${seen.value}" on line ${seen.line} of the same product (${handle})`,
      });
    }
  }
  const variant = readVariant(cell, record, columns, line, problems);
  if (variant) group.variants.push({ line, body: variant });
}

function readVariant(
  cell: (name: string) => string,
  record: string[],
  columns: Columns,
  line: number,
  problems: LineProblem[],
): Record<string, unknown> | undefined {
  const options: Record<string, string> = {};
  for (const { name, index } of columns.options) {
    const value = (record[index] ?? '').trim();
    if (value !== '') options[name] = value;
  }
  // Untrimmed: a SKU with edge spaces is refused by name (keys compare exactly), not cleaned quietly.
  const skuIndex = columns.byName.get('sku');
  const rawSku = skuIndex === undefined ? '' : (record[skuIndex] ?? '');
  const sku = rawSku.trim() === '' ? '' : rawSku;
  const filled = VARIANT_COLUMNS.filter((name) => name !== 'sku' && cell(name) !== '');
  if (sku === '') {
    if (filled.length > 0 || Object.keys(options).length > 0) {
      problems.push({
        line,
        message: `variant columns (${[...filled, ...Object.keys(options).map((o) => `options.${o}`)].join(', ')}) without a sku`,
      });
    }
    return undefined;
  }
  const body: Record<string, unknown> = { sku };
  const text = (name: (typeof VARIANT_COLUMNS)[number], field: string = name) => {
    if (cell(name) !== '') body[field] = cell(name);
  };
  text('variant_title', 'title');
  text('price');
  text('msrp');
  text('barcode');
  text('asin');
  for (const name of ['quantity', 'grams'] as const) {
    const value = cell(name);
    if (value === '') continue;
    if (!/^\d+$/.test(value))
      problems.push({ line, message: `${name} "${value}" is not a whole number (SKU ${sku})` });
    else body[name] = Number(value);
  }
  if (Object.keys(options).length > 0) body.options = options;
  return body;
}

function toProduct(group: Group): RawProduct {
  const body: Record<string, unknown> = {};
  const value = (name: string) => group.fields.get(name)?.value;
  for (const name of [
    'title',
    'description',
    'brand',
    'category',
    'short_description',
    'mpn',
    'currency',
    'status',
  ]) {
    if (value(name) !== undefined) body[name] = value(name);
  }
  const vat = value('vat_rate');
  // Left as text when it is not a number, so the schema check names it.
  if (vat !== undefined) body.vat_rate = /^\d+(\.\d+)?$/.test(vat) ? Number(vat) : vat;
  const tags = value('tags');
  if (tags !== undefined) body.tags = splitList(tags);
  const images = value('images');
  if (images !== undefined) body.images = splitList(images).map((url) => ({ url }));
  if (value('weight.value') !== undefined || value('weight.unit') !== undefined) {
    body.weight = { value: value('weight.value'), unit: value('weight.unit') ?? 'oz' };
  }
  const dimensions = ['length', 'width', 'height', 'unit'].map((name) => value(`dimensions.${name}`));
  if (dimensions.some((part) => part !== undefined)) {
    const [length, width, height, unit] = dimensions;
    body.dimensions = { length, width, height, unit: unit ?? 'in' };
  }
  if (group.variants.length > 0) body.variants = group.variants.map((variant) => variant.body);
  return {
    line: group.line,
    variantLines: group.variants.map((variant) => variant.line),
    handle: group.handle,
    body,
  };
}

function splitList(cell: string): string[] {
  return cell
    .split(LIST_SEPARATOR)
    .map((part) => part.trim())
    .filter((part) => part !== '');
}
