import type { Command } from 'commander';
import { BATCH_MAX_ITEMS } from '../../api/contract.js';
import type { Context } from '../../cli/context.js';
import { type ItemOutcome, RunStopped, Tally } from '../../core/bulk.js';
import type { CheckedUpsertFile, UpsertFormat } from '../../core/products/upsert-file.js';
import { PartialFailure, UsageError } from '../../errors.js';

/** Flags of `svc products upsert`. */
export interface UpsertCommandOptions {
  format?: UpsertFormat;
  dryRun?: boolean;
  report?: string;
}

/** Batches in flight at once; the pacer decides when each is actually sent. */
const CONCURRENCY = 4;
/** After SIGINT or SIGTERM, how long in-flight batches may take to land. */
const STOP_GRACE_MS = 2000;
/** Failed products listed on stderr before the rest are only counted. */
const FAILURES_SHOWN = 20;

const HELP = [
  '',
  'Products are matched by variant SKU: one whose SKUs exist updates that product (its variants',
  'and images become the ones in the file), any other is created. The whole file is checked',
  'first (fields, option matrix, at most 20 images, no SKU in two products); any bad line stops',
  'the run with exit 2 and nothing is sent. Then products go in requests of 100.',
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
  '',
  'Examples:',
  '  svc products upsert catalog.csv --dry-run',
  '  svc products upsert catalog.jsonl --report upsert-report.csv',
  '  cat catalog.json | svc products upsert - --format json',
].join('\n');

/** `svc products upsert FILE`. */
export function upsertCommand(parent: Command, ctx: Context): void {
  parent
    .command('upsert')
    .description('create or update many products from a file, matched by variant SKU, 100 per request')
    .argument(
      '<file>',
      '.json (array), .jsonl or .csv (one row per variant); - for standard input with --format',
    )
    .option('--format <format>', 'json, jsonl or csv, when the file name does not say')
    .option('--dry-run', 'check the file and show what would be sent; send nothing')
    .option('--report <out.csv>', 'write line,key,status,code,message for every product')
    .addHelpText('after', HELP)
    .action(async (file: string, options: UpsertCommandOptions) => runUpsert(ctx, file, options));
}

/** Checks the whole file, then upserts it in chunks of 100 and reports per-product outcomes. */
export async function runUpsert(ctx: Context, path: string, options: UpsertCommandOptions): Promise<void> {
  const { checkUpsertFile, formatOf, UPSERT_FORMATS } = await import('../../core/products/upsert-file.js');
  const format = options.format ?? formatOf(path);
  if (!format || !UPSERT_FORMATS.includes(format)) {
    const why = options.format
      ? `--format ${options.format} is not one of`
      : `cannot tell the format of ${path} from its name; use --format with`;
    throw new UsageError(`${why} ${UPSERT_FORMATS.join(', ')}`);
  }
  const { sourcePath, usesLiveKey } = await import('./write-helpers.js');
  const shownPath = path === '-' ? 'standard input' : path;
  const file = await checkUpsertFile(await sourcePath(ctx, path), format, shownPath).catch(
    (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') throw new UsageError(`no such file: ${path}`);
      throw error;
    },
  );
  const requests = Math.ceil(file.items.length / BATCH_MAX_ITEMS);
  if (options.dryRun) return showDryRun(ctx, file, requests);

  const client = await ctx.client();
  const live = await usesLiveKey(ctx);
  if (live && !(await confirmUpsert(ctx, file, requests)))
    throw new UsageError('upsert canceled; nothing was sent');

  const { upsertProducts: sendBatch } = await import('../../api/resources/products.js');
  const { upsertProducts } = await import('../../core/products/upsert.js');
  const { startProgress } = await import('../../output/progress.js');
  const report = options.report
    ? await (await import('../../output/report.js')).ReportFile.open(options.report)
    : undefined;
  const progress = await startProgress(ctx.io, {
    total: file.items.length,
    noun: 'products',
    enabled: !ctx.globals.quiet && ctx.env.CI !== 'true',
  });
  const tally = new Tally();
  const failures: ItemOutcome[] = [];
  let created = 0;
  const started = ctx.now();
  let stopped: RunStopped | undefined;
  try {
    await upsertProducts(file.items, {
      concurrency: CONCURRENCY,
      simulated: !live,
      send: (inputs) => {
        tally.summary.requests++;
        return sendBatch(client, inputs, ctx.signal);
      },
      onChunk: (outcomes) => {
        for (const outcome of outcomes) {
          tally.add(outcome);
          if (outcome.status === 'created') created++;
          if (outcome.status === 'failed') failures.push(outcome);
        }
        report?.write(outcomes);
        progress.update(tally.summary.total);
      },
      signal: ctx.signal,
      graceMs: STOP_GRACE_MS,
    });
  } catch (error) {
    if (!(error instanceof RunStopped)) throw error;
    stopped = error;
  } finally {
    progress.stop();
    await report?.close();
    tally.summary.seconds = (ctx.now() - started) / 1000;
  }
  const summary = tally.summary;
  summary.skipped += file.items.length - summary.total;
  for (const failure of failures.sort((a, b) => a.line - b.line).slice(0, FAILURES_SHOWN)) {
    ctx.messages.info(
      `line ${failure.line} ${failure.key}: ${failure.code ?? 'failed'}: ${failure.message ?? ''}`.trimEnd(),
    );
  }
  if (failures.length > FAILURES_SHOWN)
    ctx.messages.info(`… and ${failures.length - FAILURES_SHOWN} more failed`);
  const { summaryLine } = await import('../../output/summary.js');
  // The tally counts a created item as updated; an upsert tells them apart.
  const shown = { ...summary, updated: summary.updated - created, created };
  if (ctx.globals.json) await ctx.printer.item(shown);
  else
    ctx.messages.info(
      `Upserted ${summaryLine(shown, 'products')}${live ? '' : ' (test key: results were simulated, nothing changed)'}`,
    );
  if (stopped) throw stopped.reason;
  if (summary.failed > 0) {
    throw new PartialFailure(
      `${summary.failed} product${summary.failed === 1 ? '' : 's'} failed${options.report ? `; see ${options.report}` : '; run with --report OUT.csv to list them all'}`,
    );
  }
}

async function showDryRun(ctx: Context, file: CheckedUpsertFile, requests: number): Promise<void> {
  const sample = file.items.slice(0, 5);
  const plan = {
    file: file.path,
    format: file.format,
    products: file.items.length,
    variants: file.variantCount,
    requests,
    write_quota: requests,
    first_products: sample.map((item) => ({
      line: item.line,
      key: item.key,
      title: item.input.title,
      variants: item.input.variants?.length ?? 0,
    })),
  };
  await ctx.printer.item(plan, {
    summary: () =>
      [
        `Dry run: ${file.items.length.toLocaleString('en-US')} products (${file.variantCount.toLocaleString('en-US')} variants) would be upserted in ${requests} request${requests === 1 ? '' : 's'} (${requests} units of daily write quota). Nothing was sent.`,
        'First products:',
        ...sample.map(
          (item) =>
            `  line ${item.line}: ${item.key} ${JSON.stringify(item.input.title)} (${item.input.variants?.length ?? 0} variants)`,
        ),
      ].join('\n'),
  });
}

/** With a live key on a terminal, says what the upsert will spend and asks; elsewhere proceeds. */
async function confirmUpsert(ctx: Context, file: CheckedUpsertFile, requests: number): Promise<boolean> {
  if (ctx.globals.yes || !ctx.canPrompt) return true;
  const { confirm } = await ctx.prompts();
  return confirm(
    {
      message: `Upsert ${file.items.length.toLocaleString('en-US')} products in ${requests} request${requests === 1 ? '' : 's'} with a LIVE key (${requests} units of daily write quota)?`,
      default: false,
    },
    { input: ctx.io.stdin, output: ctx.io.stderr },
  );
}
