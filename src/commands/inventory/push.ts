import type { Command } from 'commander';
import { BATCH_MAX_ITEMS, keyMode } from '../../api/contract.js';
import type { Context } from '../../cli/context.js';
import { integerFlag } from '../../cli/parse.js';
import { RunStopped, Tally } from '../../core/bulk.js';
import type { CheckedFile } from '../../core/inventory/check.js';
import { PartialFailure, UsageError } from '../../errors.js';
import type { ReportFile } from '../../output/report.js';

/** Flags of `svc inventory push`. */
export interface PushOptions {
  batchSize: number;
  dryRun?: boolean;
  report?: string;
  map?: string;
}

/** Batches in flight at once; the pacer decides when each is actually sent. */
const CONCURRENCY = 8;
/** After SIGINT or SIGTERM, how long in-flight batches may take to land. */
const STOP_GRACE_MS = 2000;

/** `svc inventory push FILE.csv`. */
export function pushCommand(parent: Command, ctx: Context): void {
  parent
    .command('push')
    .description('set quantity and price for every SKU in a CSV file, as fast as the rate limit allows')
    .argument('<file>', 'CSV with a header: sku, quantity and/or price (- for standard input)')
    .option(
      '--batch-size <n>',
      `SKUs per request (1 to ${BATCH_MAX_ITEMS})`,
      integerFlag('--batch-size', 1, BATCH_MAX_ITEMS),
      BATCH_MAX_ITEMS,
    )
    .option('--map <pairs>', 'rename columns, e.g. sku=Item,quantity=Qty,price=Price')
    .option('--dry-run', 'check the file and show what would be sent; send nothing')
    .option('--report <out.csv>', 'write line,key,status,code,message for every SKU')
    .addHelpText(
      'after',
      [
        '',
        'The whole file is checked before the first request: any bad line stops the run (exit 2)',
        'and nothing is sent. An empty cell leaves that value unchanged.',
        '',
        'Examples:',
        '  svc inventory push stock.csv',
        '  svc inventory push stock.csv --dry-run',
        '  svc inventory push export.csv --map sku=Item,quantity=Qty --report push-report.csv',
      ].join('\n'),
    )
    .action(async (file: string, options: PushOptions) => runPush(ctx, file, options));
}

/** Checks the whole file, then pushes it in batches and reports per-SKU outcomes. */
export async function runPush(ctx: Context, path: string, options: PushOptions): Promise<void> {
  const { spoolStdin } = await import('../../config/spool.js');
  const source = path === '-' ? await spoolStdin(ctx.io.stdin) : path;
  const { checkInventoryFile } = await import('../../core/inventory/check.js');
  const file = await checkInventoryFile(source, options.map).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') throw new UsageError(`no such file: ${path}`);
    throw error;
  });
  const requests = Math.ceil(file.rowCount / options.batchSize);
  if (options.dryRun) return showDryRun(ctx, file, requests);

  const client = await ctx.client();
  const credentials = await ctx.credentials();
  const live = keyMode(credentials.apiKey ?? '') === 'live';
  if (live && !(await confirmPush(ctx, file, requests)))
    throw new UsageError('push canceled; nothing was sent');

  const { pushInventoryBatch } = await import('../../api/resources/inventory.js');
  const { pushInventory } = await import('../../core/inventory/push.js');
  const { startProgress } = await import('../../output/progress.js');
  const report = options.report ? await openReport(options.report) : undefined;
  const progress = await startProgress(ctx.io, {
    total: file.rowCount,
    noun: 'SKUs',
    enabled: !ctx.globals.quiet && ctx.env.CI !== 'true',
  });
  const tally = new Tally();
  const started = ctx.now();
  let stopped: RunStopped | undefined;
  try {
    await pushInventory(file, {
      batchSize: options.batchSize,
      concurrency: CONCURRENCY,
      simulated: !live,
      send: (rows) => {
        tally.summary.requests++;
        return pushInventoryBatch(client, rows);
      },
      onBatch: ({ outcomes }) => {
        for (const outcome of outcomes) tally.add(outcome);
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
  summary.skipped += file.rowCount - summary.total;
  const { summaryLine } = await import('../../output/summary.js');
  if (ctx.globals.json) await ctx.printer.item(summary);
  else
    ctx.messages.info(
      `Pushed ${summaryLine(summary, 'SKUs')}${live ? '' : ' (test key: results were simulated, nothing changed)'}`,
    );
  if (stopped) throw stopped.reason;
  if (summary.failed > 0) {
    throw new PartialFailure(
      `${summary.failed} SKU${summary.failed === 1 ? '' : 's'} failed${options.report ? `; see ${options.report}` : '; run with --report OUT.csv to list them'}`,
    );
  }
}

async function showDryRun(ctx: Context, file: CheckedFile, requests: number): Promise<void> {
  const plan = {
    file: file.path,
    rows: file.rowCount,
    requests,
    write_quota: requests,
    first_rows: file.sample.map(({ sku, quantity, price }) => ({ sku, quantity, price })),
  };
  await ctx.printer.item(plan, {
    summary: () =>
      [
        `Dry run: ${file.rowCount.toLocaleString('en-US')} SKUs would be pushed in ${requests.toLocaleString('en-US')} requests (${requests} units of daily write quota). Nothing was sent.`,
        'First rows:',
        ...file.sample.map(
          (r) =>
            `  line ${r.line}: ${r.sku}${r.quantity === undefined ? '' : ` quantity=${r.quantity}`}${r.price === undefined ? '' : ` price=${r.price}`}`,
        ),
      ].join('\n'),
  });
}

/** With a live key on a terminal, says what the push will spend and asks; elsewhere proceeds. */
async function confirmPush(ctx: Context, file: CheckedFile, requests: number): Promise<boolean> {
  if (ctx.globals.yes || !ctx.canPrompt) return true;
  const { confirm } = await ctx.prompts();
  return confirm({
    message: `Push ${file.rowCount.toLocaleString('en-US')} SKUs in ${requests} requests with a LIVE key (${requests} units of daily write quota)?`,
    default: false,
  });
}

async function openReport(path: string): Promise<ReportFile> {
  const { ReportFile } = await import('../../output/report.js');
  return ReportFile.open(path);
}
