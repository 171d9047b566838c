import type { BulkDeps, BulkPlan, DryRun } from '../../cmdutil/bulk-command.js';
import { defineCommand } from '../../cmdutil/define.js';
import type { Deps } from '../../cmdutil/deps.js';
import { type WaitFlags, waitFlags } from '../../cmdutil/follow.js';
import { integerFlag } from '../../cmdutil/parse.js';
import type { Journal } from '../../config/journal.js';
import { BATCH_MAX_ITEMS } from '../../contract/contract.js';
import type { CheckedFile } from '../../core/inventory/check.js';
import type { InventoryRow } from '../../core/inventory/csv-rows.js';
import type { LiveStock } from '../../core/inventory/live-stock.js';
import { counted, plural } from '../../words.js';
import type { CheckedCopy, PushJournal } from './push-journal.js';
import type { PushPlan } from './push-plan.js';

/** Flags of `svc inventory push`. */
export interface PushOptions extends WaitFlags {
  /** --batch-size as given; 100 without it, and a resume's journal holds its own. */
  batchSize?: number;
  dryRun?: boolean;
  resume?: boolean;
  report?: string;
  map?: string;
  ignore?: string;
  encoding?: string;
  changedOnly?: boolean;
  backup?: string;
  allowZeroing?: boolean;
}

/** `svc inventory push FILE.csv`. */
export const command = defineCommand<PushOptions & { file: string }>({
  path: ['inventory', 'push'],
  rank: 1,
  description: 'set quantity and price for every SKU in a CSV file, as fast as the rate limit allows',
  args: [
    { name: 'file', description: 'CSV with a header: sku, quantity and/or price (- for standard input)' },
  ],
  flags: [
    {
      flags: '--batch-size <n>',
      description: `SKUs per request, 1 to ${BATCH_MAX_ITEMS} (default ${BATCH_MAX_ITEMS}; --resume keeps the interrupted push's)`,
      parse: integerFlag('--batch-size', 1, BATCH_MAX_ITEMS),
    },
    { flags: '--map <pairs>', description: 'rename columns, e.g. sku=Item,quantity=Qty,price=Price' },
    {
      flags: '--ignore <columns>',
      description:
        'columns meant to be left out, e.g. Note,Qty2 (a column that looks like quantity or price otherwise stops the run)',
    },
    {
      flags: '--encoding <name>',
      description: 'utf-8 (default) or latin1 (Windows-1252, as Excel on Windows saves "CSV")',
    },
    { flags: '--dry-run', description: 'check the file and show what would be sent; send nothing' },
    {
      flags: '--resume',
      description: 'continue an interrupted push of the same file: send only unconfirmed batches',
    },
    {
      flags: '--changed-only',
      description:
        'read the store first (no write quota) and send only the rows that differ; quota spent: ceil(changed / 100)',
    },
    {
      flags: '--backup <out.csv>',
      description:
        "before the first write, save the store's values of every SKU the push changes (push that file to undo)",
    },
    {
      flags: '--allow-zeroing',
      description: 'go on when the push would set more than 20% of its SKUs to quantity 0',
    },
    { flags: '--report <out.csv>', description: 'write line,key,status,code,message for every SKU' },
    ...waitFlags('follow the operations until the channels answered; name channel failures per SKU'),
  ],
  takes: { confirms: true },
  notes: [
    'The whole file is checked before the first request: any bad line stops the run (exit 2)',
    'and nothing is sent (--report then lists every bad line). An empty cell leaves that value',
    'unchanged. The columns read and left out are named first; a left-out column that looks like',
    'quantity or price while no column is read as that field, a header named twice, text that is',
    'not UTF-8, and control or invisible characters or edge spaces in a SKU stop the run.',
    '',
    'A push that would set more than 20% of the SKUs it covers to quantity 0 (counted exactly',
    'after the read of --changed-only or --backup; else judged on a file of 50 rows or more) asks on',
    'a terminal and stops without one (exit 2); --allow-zeroing lets it go on.',
  ],
  examples: [
    'svc inventory push stock.csv',
    'svc inventory push stock.csv --dry-run',
    'svc inventory push stock.csv --changed-only --backup before.csv',
    'svc inventory push before.csv --changed-only   # undoes the push above',
    'svc inventory push stock.csv --resume      # after a quota stop, Ctrl-C or a CI timeout',
    'svc inventory push export.csv --map sku=Item,quantity=Qty --report push-report.csv',
  ],
  run: ({ file, ...options }, deps) => runPush(deps, file, options),
});

/** What a push uses. */
type PushDeps = BulkDeps & Pick<Deps, 'env' | 'credentials'>;

/** Checks the whole file, then pushes it (or only what differs from the store) in batches and reports per-SKU outcomes. */
async function runPush(ctx: PushDeps, path: string, options: PushOptions): Promise<void> {
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
  const { runBulk, showDryRun } = await import('../../cmdutil/bulk-command.js');
  // A plain dry run needs neither the store nor the journal: it stays offline.
  if (options.dryRun && !options.resume && !options.changedOnly && !options.backup) {
    const { fileZeroingRisk } = await import('../../core/inventory/zeroing.js');
    const zeroing = fileZeroingRisk(file.zeroQuantityRows, file.rowCount);
    const batchSize = options.batchSize ?? BATCH_MAX_ITEMS;
    return showDryRun(ctx, await pushDryRun(file, batchSize, file.rowCount, 0, { zeroing }, file.sample));
  }
  const state = await PushJournal.open(ctx, file, options);
  try {
    const { planPush, guardZeroing } = await import('./push-plan.js');
    // Compared from the checked copy, as it is sent: a file replaced since the check changes nothing.
    const plan = await planPush(ctx, copy ? { ...file, path: copy.path } : file, options, state);
    if (!options.dryRun && (await guardZeroing(ctx, plan.zeroing, Boolean(options.allowZeroing))))
      state.decisions.zeroingAccepted = true;
    const bulk = await pushPlan(ctx, path, file, options, state, copy as CheckedCopy, plan);
    await runBulk(ctx, bulk, options);
  } finally {
    state.release();
  }
}

/**
 * The push as the bulk frame runs it: the unconfirmed batches of the checked copy, each the
 * service confirmed journaled; with --wait, the channels' verdict before the summary.
 */
async function pushPlan(
  ctx: PushDeps,
  path: string,
  file: CheckedFile,
  options: PushOptions,
  state: PushJournal,
  copy: CheckedCopy,
  plan: PushPlan,
): Promise<BulkPlan> {
  const requests = state.totalBatches - state.confirmedCount;
  const { selection } = state.decisions;
  const count = (value: number) => value.toLocaleString('en-US');
  const differ = plural(state.rowsToSend, 'differs', 'differ');
  const rowsLeft = state.rowsToSend - state.confirmedRows;
  // What this run sends: of a resume, only the rows the interrupted push did not confirm.
  const skus =
    state.confirmedCount > 0
      ? selection
        ? `${count(rowsLeft)} of the ${counted(state.rowsToSend, 'SKU')} that ${differ} (of ${count(file.rowCount)}; the rest of the interrupted push)`
        : `${count(rowsLeft)} of ${counted(file.rowCount, 'SKU')} (the rest of the interrupted push)`
      : selection
        ? `the ${counted(state.rowsToSend, 'SKU')} that ${differ} (of ${count(file.rowCount)})`
        : counted(file.rowCount, 'SKU');
  const { firstRowsToSend } = await import('../../core/inventory/selection.js');
  const firstRows =
    selection || state.confirmedCount > 0
      ? await firstRowsToSend(file, state.batchSize, selection, (index) => state.isConfirmed(index), 5)
      : file.sample;
  let journal: Journal | undefined;
  // Sent, and read again for the lines of channel refusals, from the copy the check wrote.
  let sent = file;
  let started = ctx.now();
  const operationIds: string[] = [];
  return {
    noun: 'SKUs',
    total: file.rowCount,
    // The rows, read again from the copy sent (not kept in memory through a long push).
    items: async function* () {
      const { inventoryBatches } = await import('../../core/inventory/check.js');
      for await (const rows of inventoryBatches(sent, 1000))
        for (const row of rows) yield { line: row.line, key: row.sku };
    },
    report: options.report,
    dryRun: await pushDryRun(file, state.batchSize, state.rowsToSend, state.confirmedCount, plan, firstRows),
    // A push that sends nothing (nothing differs) has nothing to ask about.
    confirmation:
      requests > 0
        ? `Push ${skus} in ${counted(requests, 'request')} with a LIVE key (${counted(requests, 'unit')} of daily write quota)`
        : undefined,
    action: 'push',
    send: async (session, client) => {
      const { pushInventoryBatch } = await import('../../client/resources/inventory.js');
      const { pushInventory } = await import('../../core/inventory/push.js');
      // Written after the question and before the first write: the undo of exactly this push.
      if (options.backup && plan.changes) {
        await writeBackup(ctx, options.backup, plan.changes.before);
        state.decisions.backup = options.backup;
      }
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
          selection,
          send: (rows) => {
            session.countRequest();
            return pushInventoryBatch(client, rows);
          },
          settle: (outcomes) => session.record(outcomes),
          onBatch: ({ index, operationId }) => {
            begun.journal.confirm(index, new Date(ctx.now()));
            if (operationId) operationIds.push(operationId);
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
          ctx.io.messages.info(
            `Waiting for ${operations} ${plural(operations, 'operation')} to reach the channels…`,
          );
          const { followMany } = await import('../../cmdutil/follow.js');
          const { channelRefusals, refusalsFailure, refusedOutcomes } = await import(
            '../../core/inventory/follow.js'
          );
          const { endOfFollow } = await import('../../core/operations/follow.js');
          const followed = await followMany(ctx, await ctx.client(), operationIds, {
            timeoutSeconds: options.timeout,
            // A minute of slack for a service clock a little behind ours.
            createdAfter: new Date(started - 60_000).toISOString(),
          });
          const refusals = await channelRefusals(sent, followed);
          // A SKU a channel refused ends failed, with the channel's code: the report's final state.
          session.revise(refusedOutcomes(refusals));
          const pending = followed.pending.map((operation) => operation.id);
          return {
            json: {
              channel_failures: refusals.map(({ index: _index, ...refusal }) => refusal),
              ...(pending.length > 0 ? { pending_operations: pending } : {}),
            },
            end: () => {
              endOfFollow(followed, refusalsFailure(refusals, options.report));
              ctx.io.messages.info(
                operations === 1
                  ? 'The operation succeeded on the channels.'
                  : `All ${operations} operations succeeded on the channels.`,
              );
            },
          };
        },
    stopNote: async () => {
      const { rerunCommand } = await import('../../cmdutil/rerun.js');
      const resume = rerunCommand(ctx.argv, { add: ['--resume'], stdinPath: state.resumeSource });
      return `stopped with ${journal?.confirmedCount ?? 0} of ${state.totalBatches} batches confirmed; \`${resume}\` sends only the rest`;
    },
  };
}

/** Writes the store's values of the SKUs the push changes to `path`, and says how to undo. */
async function writeBackup(ctx: Pick<Deps, 'io'>, path: string, before: readonly LiveStock[]): Promise<void> {
  const { writeStockFile } = await import('../../output/stock-file.js');
  writeStockFile(path, before);
  // A header-only file is refused as a push (an empty feed), so it is no undo command to offer.
  ctx.io.messages.info(
    before.length === 0
      ? `Backup: this push changes no SKU, so there is nothing to undo; ${path} holds only the header.`
      : `Saved the store's values of the ${counted(before.length, 'SKU')} this push changes to ${path}; \`svc inventory push ${path}\` undoes it.`,
  );
}

/**
 * What a dry run (or a resume's) would send, with what the read and the zeroing guard found;
 * `firstRows` are the first rows it would send.
 */
async function pushDryRun(
  file: CheckedFile,
  batchSize: number,
  rowsToSend: number,
  confirmedBatches: number,
  { changes, zeroing }: PushPlan,
  firstRows: readonly InventoryRow[],
): Promise<DryRun> {
  const total = Math.ceil(rowsToSend / batchSize);
  const requests = total - confirmedBatches;
  const count = (value: number) => value.toLocaleString('en-US');
  const skus =
    rowsToSend === file.rowCount
      ? counted(file.rowCount, 'SKU')
      : `${count(rowsToSend)} of ${counted(file.rowCount, 'SKU')}`;
  const what =
    confirmedBatches > 0
      ? `resuming, ${count(requests)} of ${count(total)} batches of ${batchSize} would be sent`
      : `${skus} would be pushed in ${counted(requests, 'request')}`;
  const { describeZeroing } = await import('../../core/inventory/zeroing.js');
  const stop = zeroing && `${describeZeroing(zeroing)}: the push would stop (--allow-zeroing goes on)`;
  return {
    plan: {
      file: file.path,
      columns: Object.fromEntries(file.plan.used.map(({ field, header }) => [field, header])),
      ignored_columns: file.plan.ignored,
      rows: file.rowCount,
      ...(rowsToSend !== file.rowCount ? { rows_to_send: rowsToSend } : {}),
      requests,
      write_quota: requests,
      batch_size: batchSize,
      ...(confirmedBatches > 0 ? { confirmed_batches: confirmedBatches, total_batches: total } : {}),
      ...(changes ? { changes: changes.counts } : {}),
      ...(zeroing ? { zeroing_guard: { ...zeroing, message: stop } } : {}),
      first_rows: firstRows.map(({ sku, quantity, price }) => ({ sku, quantity, price })),
    },
    what: `${what} (${requests} ${plural(requests, 'unit')} of daily write quota)${stop ? `. Zeroing guard: ${stop}` : ''}`,
    heading: 'First rows',
    first: firstRows.map(
      (r) =>
        `line ${r.line}: ${r.sku}${r.quantity === undefined ? '' : ` quantity=${r.quantity}`}${r.price === undefined ? '' : ` price=${r.price}`}`,
    ),
  };
}
