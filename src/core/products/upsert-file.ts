/**
 * The whole-file check of `products upsert`, before the first request: a JSON array, JSON
 * Lines or the CSV layout; every product checked against the schema and the option matrix;
 * no SKU in two products. Any problem stops the run with each bad line named.
 */
import { extname } from 'node:path';
import type { ProductInput } from '../../contract/schemas/product.js';
import { UsageError } from '../../errors.js';
import { badLinesError } from '../csv/problems.js';
import { keyTextProblem, readText, type TextEncoding, withEncodingProblems } from '../csv/text.js';
import { checkProductInput, describeProblem } from './check.js';
import { JsonSyntaxError, parseJsonFile, parseJsonText } from './json-text.js';
import { type LineProblem, type ProductsRead, type RawProduct, readProductCsv } from './product-csv.js';

/** File formats `products upsert` reads. */
import type { UpsertFormat } from './upsert-formats.js';

/** One checked product, ready to send. */
export interface UpsertItem {
  /** Line where it starts in the file. */
  line: number;
  /** Its first SKU, else its handle or title: the report's `key`. */
  key: string;
  input: ProductInput;
}

/** How the file is read. */
export interface UpsertReadOptions {
  encoding?: TextEncoding;
  /**
   * `--create-unmatched`: send products without variants. Upsert matches on variant SKU, so
   * such a product is created again on every run of the file; without this they are refused.
   */
  createUnmatched?: boolean;
}

/** True for a product the service can match to an existing one (it has a variant, hence a SKU). */
export function isMatchable(input: ProductInput): boolean {
  return (input.variants?.length ?? 0) > 0;
}

/** A file that passed the check. */
export interface CheckedUpsertFile {
  path: string;
  format: UpsertFormat;
  items: UpsertItem[];
  variantCount: number;
}

/** The format a file's name says: .json, .jsonl or .ndjson, .csv, .tsv or .txt. */
export function formatOf(path: string): UpsertFormat | undefined {
  const extension = extname(path).toLowerCase();
  if (extension === '.json') return 'json';
  if (extension === '.jsonl' || extension === '.ndjson') return 'jsonl';
  if (extension === '.csv' || extension === '.tsv' || extension === '.txt') return 'csv';
  return undefined;
}

/** Reads and checks the whole file; throws UsageError listing bad lines (first 50, then a count). */
export async function checkUpsertFile(
  path: string,
  format: UpsertFormat,
  shownPath = path,
  options: UpsertReadOptions = {},
): Promise<CheckedUpsertFile> {
  const encoding = options.encoding ?? 'utf-8';
  const read =
    format === 'csv'
      ? await readProductCsv(path, encoding)
      : await readJsonProducts(path, format, shownPath, encoding);
  const { products, problems } = read;
  const items: UpsertItem[] = [];
  const skuOwners = new Map<string, { line: number; product: RawProduct }>();
  for (const product of products) {
    const checked = checkProductInput(product.body);
    const label = labelOf(product);
    if (!checked.ok) {
      for (const problem of checked.problems) {
        problems.push({
          line: lineOfPath(product, problem.path),
          message: `${label}: ${describeProblem(problem)}`,
        });
      }
    }
    // SKUs of a product with other problems still count, so every clash shows in one pass.
    let clash = false;
    skusOf(product.body).forEach((sku, index) => {
      const first = skuOwners.get(sku);
      const line = product.variantLines[index] ?? product.line;
      const text = keyTextProblem('SKU', sku);
      if (text) {
        clash = true;
        problems.push({ line, key: sku, code: 'invalid_sku', message: text });
      }
      if (first === undefined) skuOwners.set(sku, { line, product });
      else if (first.product !== product) {
        clash = true;
        problems.push({
          line,
          message: `SKU ${sku} is also on line ${first.line}, in another product; a SKU belongs to one product`,
        });
      }
    });
    if (checked.ok && !isMatchable(checked.value) && !options.createUnmatched) {
      problems.push({
        line: product.line,
        key: product.handle,
        code: 'unmatchable',
        message: `${label} has no variants, so no SKU can match it to an existing product and every run would create another copy; give it a variant with a sku, or pass --create-unmatched to create it anyway`,
      });
      continue;
    }
    if (checked.ok && !clash)
      items.push({
        line: product.line,
        key: checked.value.variants?.[0]?.sku ?? label,
        input: checked.value,
      });
  }
  const all = withEncodingProblems(problems, read.encodingProblems);
  if (all.length > 0) throw badLinesError(shownPath, all);
  if (items.length === 0) throw new UsageError(`${shownPath} holds no products; nothing to upsert`);
  const variantCount = items.reduce((sum, item) => sum + (item.input.variants?.length ?? 0), 0);
  return { path: shownPath, format, items, variantCount };
}

async function readJsonProducts(
  path: string,
  format: 'json' | 'jsonl',
  shownPath: string,
  encoding: TextEncoding,
): Promise<ProductsRead> {
  const { text, problems: encodingProblems } = await readText(path, encoding);
  if (format === 'jsonl') return { ...readJsonLines(text), encodingProblems };
  const parsed = parseJsonFile(text, shownPath);
  if (!Array.isArray(parsed.value)) {
    throw new UsageError(
      `${shownPath} must hold a JSON array of products ([{"title": …}, …]); nothing was sent`,
    );
  }
  const lines = parsed.elementLines;
  const shared = new Set(lines.filter((line, index) => lines.indexOf(line) !== index));
  const products = parsed.value.map((body, index) => ({
    ...rawFrom(body, lines[index]),
    ...(shared.has(lines[index]) ? { item: index + 1 } : {}),
  }));
  return { products, problems: [], encodingProblems };
}

function readJsonLines(text: string): { products: RawProduct[]; problems: LineProblem[] } {
  const products: RawProduct[] = [];
  const problems: LineProblem[] = [];
  text
    .replace(/^\uFEFF/, '')
    .split('\n')
    .forEach((raw, index) => {
      const line = index + 1;
      if (raw.trim() === '') return;
      try {
        products.push(rawFrom(parseJsonText(raw).value, line));
      } catch (error) {
        if (!(error instanceof JsonSyntaxError)) throw error;
        problems.push({
          line,
          message: `malformed JSON at column ${error.column}: ${error.reason.replace('end of file', 'end of line')}`,
        });
      }
    });
  return { products, problems };
}

function rawFrom(body: unknown, line: number): RawProduct {
  const record = body as Record<string, unknown>;
  const title = typeof record?.title === 'string' ? record.title : '';
  return { line, variantLines: [], handle: title, body: record as Record<string, unknown> };
}

function skusOf(body: Record<string, unknown> | null): string[] {
  const variants = body?.variants;
  if (!Array.isArray(variants)) return [];
  return variants
    .map((variant) => (variant as { sku?: unknown } | null)?.sku)
    .filter((sku): sku is string => typeof sku === 'string');
}

/** Longer handles are cut in messages: a title of megabytes must not come back whole on stderr. */
const LABEL_MAX = 60;

function labelOf(product: RawProduct): string {
  const { handle } = product;
  const cut = handle && handle.length > LABEL_MAX ? `${handle.slice(0, LABEL_MAX)}…` : handle;
  const name = cut ? JSON.stringify(cut) : 'product';
  return product.item === undefined ? name : `item ${product.item}, ${name}`;
}

/** A CSV variant's own row for `variants[2]…`; the product's first line otherwise. */
function lineOfPath(product: RawProduct, path: string): number {
  const index = /^variants\[(\d+)\]/.exec(path)?.[1];
  return index === undefined ? product.line : (product.variantLines[Number(index)] ?? product.line);
}
