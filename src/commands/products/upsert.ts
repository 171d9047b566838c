import { type BulkPlan, type DryRun, runBulk } from '../../cmdutil/bulk-command.js';
import { defineCommand } from '../../cmdutil/define.js';
import type { Deps } from '../../cmdutil/deps.js';
import { readInputFile } from '../../cmdutil/input-check.js';
import { showUpsertDryRun } from '../../cmdutil/products/upsert-dry-run.js';
import { BATCH_MAX_ITEMS } from '../../contract/contract.js';
import { sendUpsert } from '../../core/products/upsert.js';
import { type CheckedUpsertFile, checkUpsertFile, formatOf } from '../../core/products/upsert-file.js';
import { UPSERT_FORMATS, type UpsertFormat } from '../../core/products/upsert-formats.js';
import { UsageError } from '../../errors.js';
import { counted, plural } from '../../words.js';

/** Flags of `svc products upsert`. */
export interface UpsertCommandOptions {
  format?: UpsertFormat;
  dryRun?: boolean;
  report?: string;
  encoding?: string;
  createUnmatched?: boolean;
}

/** `svc products upsert FILE`. */
export const command = defineCommand<{ file: string } & UpsertCommandOptions>({
  path: ['products', 'upsert'],
  rank: 6,
  description: 'create or update many products from a file, matched by variant SKU, 100 per request',
  args: [
    {
      name: 'file',
      description: '.json (array), .jsonl or .csv (one row per variant); - for standard input with --format',
    },
  ],
  flags: [
    {
      flags: '--format <format>',
      description: 'json, jsonl or csv, when the file name does not say',
      completes: { kind: 'choices', values: UPSERT_FORMATS },
    },
    {
      flags: '--dry-run',
      description:
        'check the file, read the catalog (reads only) and show what each product would do; send nothing',
    },
    {
      flags: '--report <out.csv>',
      description:
        'write line,key,status,code,message for every product (.json, .ndjson: as JSON); with --dry-run, the verdicts',
    },
    {
      flags: '--encoding <name>',
      description:
        'utf-8 or latin1 (Windows-1252); default UTF-8, or Windows-1252 for a file that is not UTF-8 but is (as Excel saves "CSV")',
    },
    {
      flags: '--create-unmatched',
      description:
        'also send products without variants: nothing can match them, so each run creates them again',
    },
  ],
  takes: { confirms: true },
  notes: [
    'Products are matched by variant SKU: one whose SKUs exist updates that product (its variants',
    'and images become the ones in the file), any other is created. A product without variants',
    'can never be matched, so every run would create it again: it is refused unless',
    '--create-unmatched says so. The whole file is checked first (fields, option matrix, at most',
    '20 images, no SKU in two products, SKUs without hidden characters); any bad line stops the',
    'run with exit 2 and nothing is sent (--report then lists every bad line). Then products go in',
    'requests of 100; when an answer is lost, products without variants are read back before',
    'anything is sent again.',
    '',
    'Formats, by file name (or --format):',
    '  .json    a JSON array of products, each as `svc products create --file` takes it',
    '  .jsonl   one product (JSON object) per line',
    '  .csv     one row per variant (comma, semicolon or tab separated), header row first:',
    '           handle        groups rows into one product (without it, rows group by title)',
    '           product       title (required), description, brand, category, short_description,',
    '                         vat_rate, mpn, currency, status, tags (a|b|c), images (URL|URL),',
    '                         weight.value, weight.unit, dimensions.length, .width, .height, .unit',
    '                         (given on the first row of a product; later rows may leave them empty)',
    '           variant       sku, variant_title, price, msrp, quantity, barcode, grams, asin',
    '           options.NAME  one column per option, e.g. options.Size, options.Color',
    '',
    '  handle,title,sku,price,quantity,options.Size,options.Color',
    '  tee,Basic tee,TEE-S-RED,19.00,5,S,Red',
    '  tee,,TEE-S-BLUE,19.00,2,S,Blue',
  ],
  examples: [
    'svc products upsert catalog.csv --dry-run',
    'svc products upsert catalog.jsonl --report upsert-report.csv',
    'cat catalog.json | svc products upsert - --format json',
  ],
  run: ({ file, ...options }, deps) => runUpsert(deps, file, options),
});

/** Checks the whole file, then upserts it in chunks of 100 and reports per-product outcomes. */
async function runUpsert(deps: Deps, path: string, options: UpsertCommandOptions): Promise<void> {
  const format = options.format ?? formatOf(path);
  if (!format || !UPSERT_FORMATS.includes(format)) {
    const why = options.format
      ? `--format ${options.format} is not one of`
      : `cannot tell the format of ${path} from its name; use --format with`;
    throw new UsageError(`${why} ${UPSERT_FORMATS.join(', ')}`);
  }
  const file = await readInputFile(deps, path, options, (source, encoding, shownPath) =>
    checkUpsertFile(source, format, shownPath, { encoding, createUnmatched: options.createUnmatched }),
  );
  await runBulk(deps, { ...upsertPlan(deps, file, options), file: path }, options);
}

/** The upsert as the bulk frame runs it. */
function upsertPlan(deps: Deps, file: CheckedUpsertFile, options: UpsertCommandOptions): BulkPlan {
  const products = counted(file.items.length, 'product');
  const requests = Math.ceil(file.items.length / BATCH_MAX_ITEMS);
  const inRequests = `${requests} ${plural(requests, 'request')}`;
  const dryRun: DryRun = {
    plan: {
      file: file.path,
      format: file.format,
      products: file.items.length,
      variants: file.variantCount,
      requests,
      write_quota: requests,
      first_products: file.items.slice(0, 5).map((item) => ({
        line: item.line,
        key: item.key,
        title: item.input.title,
        variants: item.input.variants?.length ?? 0,
      })),
    },
    what: `${products} (${counted(file.variantCount, 'variant')}) would be upserted in ${inRequests} (${counted(requests, 'unit')} of daily write quota)`,
    heading: 'First products',
    first: file.items
      .slice(0, 5)
      .map(
        (item) =>
          `line ${item.line}: ${item.key} ${JSON.stringify(item.input.title)} (${item.input.variants?.length ?? 0} variants)`,
      ),
  };
  return {
    noun: 'products',
    total: file.items.length,
    items: () => file.items,
    report: options.report,
    dryRun: async () => {
      await showUpsertDryRun(deps, file, dryRun, options.report);
    },
    confirmation: `Upsert ${products} in ${inRequests} with a LIVE key (${counted(requests, 'unit')} of daily write quota)`,
    action: 'upsert',
    send: async (session, client) => {
      await sendUpsert(client, file.items, session, deps.now);
    },
    verb: 'Upserted',
    // `updated` counts created products too (the counts add up to total); an upsert says how many.
    json: (record) => ({ created: record.count('created') }),
    rerunNote: '; products already written come back unchanged',
  };
}
