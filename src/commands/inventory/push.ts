import type { Command } from 'commander';
import { BATCH_MAX_ITEMS } from '../../api/contract.js';
import type { BulkPlan, DryRun } from '../../cmdutil/bulk-command.js';
import type { Context } from '../../cmdutil/context.js';
import { type WaitFlags, withWait } from '../../cmdutil/follow.js';
import { integerFlag } from '../../cmdutil/parse.js';
import type { Journal } from '../../config/journal.js';
import type { CheckedFile } from '../../core/inventory/check.js';
import { counted, requestsAndQuota } from '../../output/summary.js';
import { plural } from '../../words.js';
import type { CheckedCopy, PushJournal } from './push-journal.js';

/** Flags of `svc inventory push`. */
export interface PushOptions extends WaitFlags {
  batchSize: number;
  dryRun?: boolean;
  resume?: boolean;
  report?: string;
  map?: string;
  ignore?: string;
  encoding?: string;
}

/** `svc inventory push FILE.csv`. */
export function pushCommand(parent: Command, ctx: Context, run = runPush): Command {
  const command = parent
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
    .option('--report <out.csv>', 'write line,key,status,code,message for every SKU');
  return withWait(command, 'follow the operations until the channels answered; name channel failures per SKU')
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
    .action(async (file: string, options: PushOptions) => run(ctx, file, options));
}

/** Checks the whole file, then pushes it in batches and reports per-SKU outcomes. */
export async function runPush(ctx: Context, path: string, options: PushOptions): Promise<void> {
  const { parseEncoding } = await import('../../core/csv/text.js');
  const encoding = parseEncoding(options.encoding);
  const { inputFile } = await import('../../cmdutil/input-file.js');
  const source = await inputFile(ctx, path);
  const { checkInventoryFile } = await import('../../core/inventory/check.js');
  const { describeColumns } = await import('../../core/csv/columns.js');
  const { checkInput, showColumns } = await import('../../cmdutil/input-check.js');
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
  const { runBulk, showDryRun } = await import('../../cmdutil/bulk-command.js');
  if (options.dryRun && !options.resume) return showDryRun(ctx, pushDryRun(file, options.batchSize, 0));
  const state = await PushJournal.open(ctx, file, options);
  try {
    await runBulk(ctx, pushPlan(ctx, path, file, options, state, copy as CheckedCopy), options);
  } finally {
    state.release();
  }
}

/**
 * The push as the bulk frame runs it: the unconfirmed batches of the checked copy, each the
 * service confirmed journaled; with --wait, the channels' verdict before the summary.
 */
function pushPlan(
  ctx: Context,
  path: string,
  file: CheckedFile,
  options: PushOptions,
  state: PushJournal,
  copy: CheckedCopy,
): BulkPlan {
  const requests = state.totalBatches - state.confirmedCount;
  let journal: Journal | undefined;
  // Sent, and read again for the lines of channel refusals, from the copy the check wrote.
  let sent = file;
  let started = ctx.now();
  const operationIds: string[] = [];
  return {
    noun: 'SKUs',
    total: file.rowCount,
    report: options.report,
    dryRun: pushDryRun(file, state.batchSize, state.confirmedCount),
    confirmation: `Push ${file.rowCount.toLocaleString('en-US')} SKUs in ${requestsAndQuota(requests).replace(' (', ' with a LIVE key (')}`,
    action: 'push',
    send: async (session, client) => {
      const { pushInventoryBatch } = await import('../../api/resources/inventory.js');
      const { pushInventory } = await import('../../core/inventory/push.js');
      // Begun only now, so a "no" or Ctrl-C at the prompt leaves no journal behind.
      const begun = state.begin(copy);
      journal = begun.journal;
      sent = { ...file, path: begun.sendFrom };
      started = ctx.now();
      try {
        await pushInventory(sent, {
          ...session.runOptions,
          batchSize: state.batchSize,
          simulated: !client.live,
          isConfirmed: (index) => begun.journal.isConfirmed(index),
          send: (rows) => {
            session.countRequest();
            return pushInventoryBatch(client, rows);
          },
          onBatch: ({ index, outcomes, operationId }) => {
            begun.journal.confirm(index, new Date(ctx.now()));
            if (operationId) operationIds.push(operationId);
            session.record(outcomes);
          },
        });
        state.finished();
      } catch (error) {
        state.stopped(path === '-');
        throw error;
      }
    },
    verb: 'Pushed',
    follow: !options.wait
      ? undefined
      : async (session) => {
          if (operationIds.length === 0) return undefined;
          const operations = operationIds.length;
          ctx.messages.info(
            `Waiting for ${operations} ${plural(operations, 'operation')} to reach the channels…`,
          );
          const { followMany } = await import('../../cmdutil/follow.js');
          const { channelRefusals, refusalsFailure } = await import('../../core/inventory/follow.js');
          const { endOfFollow } = await import('../../core/operations/follow.js');
          const followed = await followMany(ctx, await ctx.client(), operationIds, {
            timeoutSeconds: options.timeout,
            // A minute of slack for a service clock a little behind ours.
            createdAfter: new Date(started - 60_000).toISOString(),
          });
          const refusals = await channelRefusals(sent, followed);
          session.reportMore(refusals);
          const pending = followed.pending.map((operation) => operation.id);
          return {
            json: {
              channel_failures: refusals.map(({ status: _status, ...refusal }) => refusal),
              ...(pending.length > 0 ? { pending_operations: pending } : {}),
            },
            end: () => {
              endOfFollow(followed, refusalsFailure(refusals, options.report));
              ctx.messages.info(
                operations === 1
                  ? 'The operation succeeded on the channels.'
                  : `All ${operations} operations succeeded on the channels.`,
              );
            },
          };
        },
    stopNote: async () => {
      const { rerunCommand } = await import('../../cmdutil/rerun.js');
      const resume = rerunCommand(ctx.args, { add: ['--resume'], stdinPath: state.resumeSource });
      return `stopped with ${journal?.confirmedCount ?? 0} of ${state.totalBatches} batches confirmed; \`${resume}\` sends only the rest`;
    },
  };
}

/** What a dry run (or a resume's) would send. */
function pushDryRun(file: CheckedFile, batchSize: number, confirmedBatches: number): DryRun {
  const total = Math.ceil(file.rowCount / batchSize);
  const requests = total - confirmedBatches;
  const what =
    confirmedBatches > 0
      ? `resuming, ${requests.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} batches of ${batchSize} would be sent`
      : `${file.rowCount.toLocaleString('en-US')} SKUs would be pushed in ${counted(requests, 'request')}`;
  return {
    plan: {
      file: file.path,
      columns: Object.fromEntries(file.plan.used.map(({ field, header }) => [field, header])),
      ignored_columns: file.plan.ignored,
      rows: file.rowCount,
      requests,
      write_quota: requests,
      ...(confirmedBatches > 0 ? { confirmed_batches: confirmedBatches, total_batches: total } : {}),
      first_rows: file.sample.map(({ sku, quantity, price }) => ({ sku, quantity, price })),
    },
    what: `${what} (${counted(requests, 'unit')} of daily write quota)`,
    heading: 'First rows',
    first: file.sample.map(
      (r) =>
        `line ${r.line}: ${r.sku}${r.quantity === undefined ? '' : ` quantity=${r.quantity}`}${r.price === undefined ? '' : ` price=${r.price}`}`,
    ),
  };
}
