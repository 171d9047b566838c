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
import type { PushPlan } from './push-plan.js';

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
  changedOnly?: boolean;
  backup?: string;
  allowZeroing?: boolean;
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
    .option(
      '--changed-only',
      'read the store first (no write quota) and send only the rows that differ; quota spent: ceil(changed / 100)',
    )
    .option(
      '--backup <out.csv>',
      "before the first write, save the store's values of every SKU the push changes (push that file to undo)",
    )
    .option('--allow-zeroing', 'go on when the push would set more than 20% of its SKUs to quantity 0')
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
        'A push that would set more than 20% of the SKUs it covers to quantity 0 (counted exactly',
        'after the read of --changed-only or --backup; else judged on the file, from 50 rows) asks on',
        'a terminal and stops without one (exit 2); --allow-zeroing lets it go on.',
        '',
        'Examples:',
        '  svc inventory push stock.csv',
        '  svc inventory push stock.csv --dry-run',
        '  svc inventory push stock.csv --changed-only --backup before.csv',
        '  svc inventory push before.csv --changed-only   # undoes the push above',
        '  svc inventory push stock.csv --resume      # after a quota stop, Ctrl-C or a CI timeout',
        '  svc inventory push export.csv --map sku=Item,quantity=Qty --report push-report.csv',
      ].join('\n'),
    )
    .action(async (file: string, options: PushOptions) => runPush(ctx, file, options));
}

/** Checks the whole file, then pushes it in batches and reports per-SKU outcomes. */
export async function runPush(ctx: Context, path: string, options: PushOptions): Promise<void> {
  const { CheckedCopy, PushJournal } = await import('./push-journal.js');
  const { checkStockFile } = await import('./read-file.js');
  // A dry run sends nothing, so it keeps no copy; a resume plan needs the journal, not a copy.
  const copy = options.dryRun ? undefined : CheckedCopy.create(ctx);
  let file: CheckedFile;
  try {
    file = await checkStockFile(ctx, path, options, copy?.write);
  } catch (error) {
    copy?.discard();
    throw error;
  }
  copy?.close();
  // A plain dry run needs neither the store nor the journal: it stays offline.
  const needsStore = options.changedOnly || options.backup;
  if (options.dryRun && !options.resume && !needsStore) {
    const { fileZeroingRisk } = await import('../../core/inventory/zeroing.js');
    return showDryRun(ctx, file, {
      batchSize: options.batchSize,
      rowsToSend: file.rowCount,
      confirmedBatches: 0,
      plan: { zeroing: fileZeroingRisk(file.zeroQuantityRows, file.rowCount) },
    });
  }

  const state = await PushJournal.open(ctx, file, options);
  try {
    const { planPush, guardZeroing } = await import('./push-plan.js');
    // Compared from the checked copy, as it is sent: a file replaced since the check changes nothing.
    const plan = await planPush(ctx, copy ? { ...file, path: copy.path } : file, options, state);
    if (options.dryRun) {
      return await showDryRun(ctx, file, {
        batchSize: state.batchSize,
        rowsToSend: state.rowsToSend,
        confirmedBatches: state.confirmedCount,
        plan,
      });
    }
    if (await guardZeroing(ctx, plan.zeroing, Boolean(options.allowZeroing)))
      state.decisions.zeroingAccepted = true;
    await pushFile(ctx, path, file, options, state, copy as CheckedCopy, plan);
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
  plan: PushPlan,
): Promise<void> {
  const client = await ctx.client();
  const live = await usesLiveKey(ctx);
  const totalBatches = state.totalBatches;
  const requests = totalBatches - state.confirmedCount;
  const { selection } = state.decisions;
  const skus = selection
    ? `the ${state.rowsToSend.toLocaleString('en-US')} SKUs that differ (of ${file.rowCount.toLocaleString('en-US')})`
    : `${file.rowCount.toLocaleString('en-US')} SKUs`;
  if (requests > 0) {
    await confirmLiveBulk(
      ctx,
      live,
      `Push ${skus} in ${requests} requests with a LIVE key (${requests} units of daily write quota)`,
      'push',
    );
  }
  if (options.backup && plan.changes) {
    const { writeStockFile } = await import('../../output/stock-file.js');
    writeStockFile(options.backup, plan.changes.before);
    state.decisions.backup = options.backup;
    const count = plan.changes.before.length;
    ctx.messages.info(
      `Saved the store's values of the ${count.toLocaleString('en-US')} SKU${count === 1 ? '' : 's'} this push changes to ${options.backup}; \`svc inventory push ${options.backup}\` undoes it.`,
    );
  }
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
        selection,
        passedOver: (outcomes) => session.record(outcomes),
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

/** What a dry run plans: rows and batches to send, and what the read and the guard found. */
interface DryRunPlan {
  batchSize: number;
  rowsToSend: number;
  confirmedBatches: number;
  plan: PushPlan;
}

async function showDryRun(ctx: Context, file: CheckedFile, dry: DryRunPlan): Promise<void> {
  const { batchSize, rowsToSend, confirmedBatches } = dry;
  const { changes, zeroing } = dry.plan;
  const total = Math.ceil(rowsToSend / batchSize);
  const requests = total - confirmedBatches;
  const { describeZeroing } = await import('../../core/inventory/zeroing.js');
  const stop = zeroing
    ? `${describeZeroing(zeroing)}: the push would stop (--allow-zeroing goes on)`
    : undefined;
  const plan = {
    file: file.path,
    columns: Object.fromEntries(file.plan.used.map(({ field, header }) => [field, header])),
    ignored_columns: file.plan.ignored,
    rows: file.rowCount,
    ...(rowsToSend !== file.rowCount ? { rows_to_send: rowsToSend } : {}),
    requests,
    write_quota: requests,
    ...(confirmedBatches > 0 ? { confirmed_batches: confirmedBatches, total_batches: total } : {}),
    ...(changes ? { changes: changes.counts } : {}),
    ...(zeroing ? { zeroing_guard: { ...zeroing, message: stop } } : {}),
    first_rows: file.sample.map(({ sku, quantity, price }) => ({ sku, quantity, price })),
  };
  const count = (value: number) => value.toLocaleString('en-US');
  const rows =
    rowsToSend === file.rowCount ? count(file.rowCount) : `${count(rowsToSend)} of ${count(file.rowCount)}`;
  const what =
    confirmedBatches > 0
      ? `resuming, ${count(requests)} of ${count(total)} batches of ${batchSize} would be sent`
      : `${rows} SKUs would be pushed in ${count(requests)} requests`;
  await ctx.printer.item(plan, {
    summary: () =>
      [
        `Dry run: ${what} (${requests} units of daily write quota). Nothing was sent.`,
        ...(stop ? [`Zeroing guard: ${stop}.`] : []),
        'First rows:',
        ...file.sample.map(
          (r) =>
            `  line ${r.line}: ${r.sku}${r.quantity === undefined ? '' : ` quantity=${r.quantity}`}${r.price === undefined ? '' : ` price=${r.price}`}`,
        ),
      ].join('\n'),
  });
}
