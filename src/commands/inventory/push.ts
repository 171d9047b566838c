import { resolve } from 'node:path';
import type { Command } from 'commander';
import type { ApiClient } from '../../api/client.js';
import { BATCH_MAX_ITEMS } from '../../api/contract.js';
import { BulkSession, STOP_GRACE_MS } from '../../cli/bulk-session.js';
import { confirmLiveBulk } from '../../cli/confirm.js';
import type { Context } from '../../cli/context.js';
import { usesLiveKey } from '../../cli/live-key.js';
import { integerFlag } from '../../cli/parse.js';
import type { Journal } from '../../config/journal.js';
import { FAILURES_SHOWN } from '../../core/bulk.js';
import type { CheckedFile } from '../../core/inventory/check.js';
import type { ChannelRefusal } from '../../core/inventory/follow.js';
import { PartialFailure, StillPending, UsageError } from '../../errors.js';

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
  const { spoolStdin } = await import('../../config/spool.js');
  const source = path === '-' ? await spoolStdin(ctx.io.stdin) : path;
  const { checkInventoryFile } = await import('../../core/inventory/check.js');
  const { parseEncoding } = await import('../../core/csv/text.js');
  const { describeColumns } = await import('../../core/csv/columns.js');
  const { checkInput, showColumns } = await import('../../cli/input-check.js');
  const encoding = parseEncoding(options.encoding);
  const file = await checkInput(path, options.report, () =>
    checkInventoryFile(source, { map: options.map, ignore: options.ignore, encoding }),
  );
  showColumns(ctx, describeColumns(file.plan));
  const plannedRequests = Math.ceil(file.rowCount / options.batchSize);
  if (options.dryRun) return showDryRun(ctx, file, plannedRequests);

  const client = await ctx.client();
  const live = await usesLiveKey(ctx);
  const journal = await openJournal(ctx, file, options);
  const batchSize = journal.data.batch_size;
  const totalBatches = Math.ceil(file.rowCount / batchSize);
  const requests = totalBatches - journal.confirmedCount;
  await confirmLiveBulk(
    ctx,
    live,
    `Push ${file.rowCount.toLocaleString('en-US')} SKUs in ${requests} requests with a LIVE key (${requests} units of daily write quota)`,
    'push',
  );

  const { pushInventoryBatch } = await import('../../api/resources/inventory.js');
  const { pushInventory } = await import('../../core/inventory/push.js');
  const { rangesToSet } = await import('../../config/journal.js');
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
      await pushInventory(file, {
        batchSize,
        concurrency: CONCURRENCY,
        simulated: !live,
        confirmed: rangesToSet(journal.data.confirmed),
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
      journal.remove();
    } catch (error) {
      journal.flush(new Date(ctx.now()));
      throw error;
    }
  });
  session.summary.skipped += file.rowCount - session.summary.total;
  // The channels' verdict comes before the summary, so that the report and the JSON summary hold it.
  let channels: ChannelOutcome | undefined;
  let waitError: unknown;
  if (options.wait && operationIds.length > 0 && !session.wasStopped) {
    try {
      channels = await waitForChannels(ctx, client, file, operationIds, started, options.timeout);
      session.reportMore(channels.refusals);
    } catch (error) {
      waitError = error;
    }
  }
  await session.finish({
    verb: 'Pushed',
    throwOnFailures: false,
    json: channels && {
      channel_failures: channels.refusals.map(({ status: _status, ...refusal }) => refusal),
      ...(channels.pending.length > 0 ? { pending_operations: channels.pending } : {}),
    },
    afterStop: () =>
      ctx.messages.warn(
        `stopped with ${journal.confirmedCount} of ${totalBatches} batches confirmed; \`svc inventory push ${path} --resume\` sends only the rest`,
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

/** The journal of this push: the interrupted one on --resume, else a fresh one. */
async function openJournal(ctx: Context, file: CheckedFile, options: PushOptions): Promise<Journal> {
  const { Journal, journalIdentity } = await import('../../config/journal.js');
  const { configDir } = await import('../../config/config-store.js');
  const { maskKey } = await import('../../api/contract.js');
  const credentials = await ctx.credentials();
  const dir = configDir(ctx.env);
  const identity = journalIdentity({
    profile: credentials.apiKeySource === 'profile' ? credentials.profileName : undefined,
    baseUrl: credentials.baseUrl,
    keyPrefix: credentials.apiKey ? maskKey(credentials.apiKey) : undefined,
  });
  const path = resolve(file.path);
  const existing = Journal.load(dir, 'inventory', file.sha256, identity);
  const total = (batchSize: number) => Math.ceil(file.rowCount / batchSize);
  if (options.resume) {
    if (existing) {
      ctx.messages.info(
        `Resuming: ${existing.confirmedCount} of ${existing.data.total_batches} batches were confirmed on ${existing.data.updated_at}.`,
      );
      return existing;
    }
    const changed = Journal.staleFor(dir, 'inventory', identity, path, file.sha256);
    if (changed.length > 0) {
      throw new UsageError(
        `${file.path} changed since the interrupted push of ${changed[0].updated_at}, so it cannot be resumed; run without --resume to push the whole file`,
      );
    }
    throw new UsageError(`there is no interrupted push of ${file.path} to resume; run without --resume`);
  }
  if (existing) {
    ctx.messages.warn(
      `an interrupted push of this file exists (${existing.confirmedCount} of ${existing.data.total_batches} batches confirmed); starting over. Use --resume to send only the unconfirmed batches.`,
    );
  }
  return Journal.start(
    dir,
    {
      kind: 'inventory',
      path,
      sha256: file.sha256,
      identity,
      batch_size: options.batchSize,
      total_batches: total(options.batchSize),
    },
    new Date(ctx.now()),
  );
}

async function showDryRun(ctx: Context, file: CheckedFile, requests: number): Promise<void> {
  const plan = {
    file: file.path,
    columns: Object.fromEntries(file.plan.used.map(({ field, header }) => [field, header])),
    ignored_columns: file.plan.ignored,
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
