import type { Command } from 'commander';
import type { ApiClient } from '../../api/client.js';
import { BATCH_MAX_ITEMS } from '../../api/contract.js';
import { BulkSession, STOP_GRACE_MS } from '../../cli/bulk-session.js';
import { confirmLiveBulk } from '../../cli/confirm.js';
import type { Context } from '../../cli/context.js';
import { usesLiveKey } from '../../cli/live-key.js';
import { integerFlag } from '../../cli/parse.js';
import { FAILURES_SHOWN } from '../../core/bulk.js';
import type { CheckedFile } from '../../core/inventory/check.js';
import type { ChannelRefusal } from '../../core/inventory/follow.js';
import { PartialFailure, StillPending } from '../../errors.js';
import type { CheckedCopy, PushJournal } from './push-journal.js';

/** Flags of `svc inventory push`. */
export interface PushOptions {
  batchSize: number;
  dryRun?: boolean;
  resume?: boolean;
  wait?: boolean;
  timeout: number;
  report?: string;
  map?: string;
  ignore?: string;
  encoding?: string;
}

/** Batches in flight at once; the pacer decides when each is actually sent. */
const CONCURRENCY = 8;

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
    .option(
      '--ignore <columns>',
      'columns meant to be left out, e.g. Note,Qty2 (a column that looks like quantity or price otherwise stops the run)',
    )
    .option('--encoding <name>', 'utf-8 (default) or latin1 (Windows-1252, as Excel on Windows saves "CSV")')
    .option('--dry-run', 'check the file and show what would be sent; send nothing')
    .option('--resume', 'continue an interrupted push of the same file: send only unconfirmed batches')
    .option('--report <out.csv>', 'write line,key,status,code,message for every SKU')
    .option('--wait', 'follow the operations until the channels answered; name channel failures per SKU')
    .option(
      '--timeout <s>',
      'with --wait: give up after S seconds (exit 8)',
      integerFlag('--timeout', 0),
      300,
    )
    .addHelpText(
      'after',
      [
        '',
        'The whole file is checked before the first request: any bad line stops the run (exit 2)',
        'and nothing is sent (--report then lists every bad line). An empty cell leaves that value',
        'unchanged. The columns read and left out are named first; a left-out column that looks like',
        'quantity or price while no column is read as that field, a header named twice, text that is',
        'not UTF-8, and control or invisible characters or edge spaces in a SKU stop the run.',
        '',
        'Examples:',
        '  svc inventory push stock.csv',
        '  svc inventory push stock.csv --dry-run',
        '  svc inventory push stock.csv --resume      # after a quota stop, Ctrl-C or a CI timeout',
        '  svc inventory push export.csv --map sku=Item,quantity=Qty --report push-report.csv',
      ].join('\n'),
    )
    .action(async (file: string, options: PushOptions) => runPush(ctx, file, options));
}

/** Checks the whole file, then pushes it in batches and reports per-SKU outcomes. */
export async function runPush(ctx: Context, path: string, options: PushOptions): Promise<void> {
  const { parseEncoding } = await import('../../core/csv/text.js');
  const encoding = parseEncoding(options.encoding);
  const { inputFile } = await import('../../cli/input-file.js');
  const source = await inputFile(ctx, path);
  const { checkInventoryFile } = await import('../../core/inventory/check.js');
  const { describeColumns } = await import('../../core/csv/columns.js');
  const { checkInput, showColumns } = await import('../../cli/input-check.js');
  const { CheckedCopy, PushJournal } = await import('./push-journal.js');
  // A dry run sends nothing, so it keeps no copy; a resume plan needs the journal, not a copy.
  const copy = options.dryRun ? undefined : CheckedCopy.create(ctx);
  let file: CheckedFile;
  try {
    file = await checkInput(path, options.report, () =>
      checkInventoryFile(source, { map: options.map, ignore: options.ignore, encoding }, copy?.write),
    );
  } catch (error) {
    copy?.discard();
    throw error;
  }
  copy?.close();
  showColumns(ctx, describeColumns(file.plan));
  if (options.dryRun && !options.resume) return showDryRun(ctx, file, options.batchSize, 0);

  const state = await PushJournal.open(ctx, file, options);
  try {
    if (options.dryRun) return await showDryRun(ctx, file, state.batchSize, state.confirmedCount);
    await pushFile(ctx, path, file, options, state, copy as CheckedCopy);
  } finally {
    state.release();
  }
}

/** Sends the unconfirmed batches of the checked copy, journaling each the service confirmed. */
async function pushFile(
  ctx: Context,
  path: string,
  file: CheckedFile,
  options: PushOptions,
  state: PushJournal,
  copy: CheckedCopy,
): Promise<void> {
  const client = await ctx.client();
  const live = await usesLiveKey(ctx);
  const totalBatches = state.totalBatches;
  const requests = totalBatches - state.confirmedCount;
  await confirmLiveBulk(
    ctx,
    live,
    `Push ${file.rowCount.toLocaleString('en-US')} SKUs in ${requests} requests with a LIVE key (${requests} units of daily write quota)`,
    'push',
  );
  const { pushInventoryBatch } = await import('../../api/resources/inventory.js');
  const { pushInventory } = await import('../../core/inventory/push.js');
  const { rerunCommand } = await import('../../cli/rerun.js');
  // Started only now, so a "no" or Ctrl-C at the prompt leaves no journal behind.
  const { journal, sendFrom } = state.begin(copy);
  // Sent, and read again for the lines of channel refusals, from the copy the check wrote.
  const sent: CheckedFile = { ...file, path: sendFrom };
  const session = await BulkSession.start(ctx, {
    total: file.rowCount,
    noun: 'SKUs',
    report: options.report,
    live,
  });
  const started = ctx.now();
  const operationIds: string[] = [];
  await session.run(async () => {
    try {
      await pushInventory(sent, {
        batchSize: state.batchSize,
        concurrency: CONCURRENCY,
        simulated: !live,
        isConfirmed: (index) => journal.isConfirmed(index),
        send: (rows) => {
          session.countRequest();
          return pushInventoryBatch(client, rows);
        },
        onBatch: ({ index, outcomes, operationId }) => {
          journal.confirm(index, new Date(ctx.now()));
          if (operationId) operationIds.push(operationId);
          session.record(outcomes);
        },
        signal: ctx.signal,
        graceMs: STOP_GRACE_MS,
      });
      state.finished();
    } catch (error) {
      state.stopped(path === '-');
      throw error;
    }
  });
  session.summary.skipped += file.rowCount - session.summary.total;
  // The channels' verdict comes before the summary, so that the report and the JSON summary hold it.
  let channels: ChannelOutcome | undefined;
  let waitError: unknown;
  if (options.wait && operationIds.length > 0 && !session.wasStopped) {
    try {
      channels = await waitForChannels(ctx, client, sent, operationIds, started, options.timeout);
      session.reportMore(channels.refusals);
    } catch (error) {
      waitError = error;
    }
  }
  const resume = rerunCommand(ctx.args, { add: ['--resume'], stdinPath: state.resumeSource });
  await session.finish({
    verb: 'Pushed',
    throwOnFailures: false,
    json: channels && {
      channel_failures: channels.refusals.map(({ status: _status, ...refusal }) => refusal),
      ...(channels.pending.length > 0 ? { pending_operations: channels.pending } : {}),
    },
    afterStop: () =>
      ctx.messages.warn(
        `stopped with ${journal.confirmedCount} of ${totalBatches} batches confirmed; \`${resume}\` sends only the rest`,
      ),
  });
  if (waitError) throw waitError;
  if (channels) endWithChannels(ctx, channels, operationIds.length, options);
  session.throwIfFailed();
}

/** How the channels took the push: the operations still pending, and every refusal as a report row. */
interface ChannelOutcome {
  pending: string[];
  refusals: ChannelRefusal[];
}

/** Follows the push's operations to the end (or the timeout), collecting every channel refusal. */
async function waitForChannels(
  ctx: Context,
  client: ApiClient,
  file: CheckedFile,
  operationIds: string[],
  started: number,
  timeoutSeconds: number,
): Promise<ChannelOutcome> {
  const { followPushOperations, channelRefusals } = await import('../../core/inventory/follow.js');
  ctx.messages.info(
    `Waiting for ${operationIds.length} operation${operationIds.length === 1 ? '' : 's'} to reach the channels…`,
  );
  const { wait, failures } = await followPushOperations(client, operationIds, {
    timeoutMs: timeoutSeconds * 1000,
    // A minute of slack for a service clock a little behind ours.
    createdAfter: new Date(started - 60_000).toISOString(),
    signal: ctx.signal,
  });
  return {
    pending: wait.pending.map((operation) => operation.id),
    refusals: await channelRefusals(file, failures),
  };
}

/** Exit 8 when some operations are still pending, 3 when a channel refused a SKU; else says all went through. */
function endWithChannels(
  ctx: Context,
  channels: ChannelOutcome,
  operations: number,
  options: PushOptions,
): void {
  if (channels.pending.length > 0) {
    throw new StillPending(
      `${channels.pending.length} of ${operations} operations still pending after ${options.timeout} s (svc operations wait ${channels.pending[0]})`,
    );
  }
  const { refusals } = channels;
  if (refusals.length > 0) {
    const where = options.report
      ? `; every one is in ${options.report}`
      : '; --report OUT.csv or --json lists every one';
    const lines = refusals.map((r) => `${r.line ? `line ${r.line}: ` : ''}${r.key}: ${r.code}: ${r.message}`);
    throw new PartialFailure(
      `the channels refused ${refusals.length} SKU update${refusals.length === 1 ? '' : 's'}${where}`,
      lines
        .slice(0, FAILURES_SHOWN)
        .concat(lines.length > FAILURES_SHOWN ? [`… and ${lines.length - FAILURES_SHOWN} more`] : []),
    );
  }
  ctx.messages.info(
    operations === 1
      ? 'The operation succeeded on the channels.'
      : `All ${operations} operations succeeded on the channels.`,
  );
}

async function showDryRun(
  ctx: Context,
  file: CheckedFile,
  batchSize: number,
  confirmedBatches: number,
): Promise<void> {
  const total = Math.ceil(file.rowCount / batchSize);
  const requests = total - confirmedBatches;
  const plan = {
    file: file.path,
    columns: Object.fromEntries(file.plan.used.map(({ field, header }) => [field, header])),
    ignored_columns: file.plan.ignored,
    rows: file.rowCount,
    requests,
    write_quota: requests,
    ...(confirmedBatches > 0 ? { confirmed_batches: confirmedBatches, total_batches: total } : {}),
    first_rows: file.sample.map(({ sku, quantity, price }) => ({ sku, quantity, price })),
  };
  const what =
    confirmedBatches > 0
      ? `resuming, ${requests.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} batches of ${batchSize} would be sent`
      : `${file.rowCount.toLocaleString('en-US')} SKUs would be pushed in ${requests.toLocaleString('en-US')} requests`;
  await ctx.printer.item(plan, {
    summary: () =>
      [
        `Dry run: ${what} (${requests} units of daily write quota). Nothing was sent.`,
        'First rows:',
        ...file.sample.map(
          (r) =>
            `  line ${r.line}: ${r.sku}${r.quantity === undefined ? '' : ` quantity=${r.quantity}`}${r.price === undefined ? '' : ` price=${r.price}`}`,
        ),
      ].join('\n'),
  });
}
