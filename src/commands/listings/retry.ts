import type { Command } from 'commander';
import type { ApiClient } from '../../api/client.js';
import type { Listing } from '../../api/schemas/listing.js';
import { BulkSession, STOP_GRACE_MS } from '../../cli/bulk-session.js';
import { confirmLiveBulk } from '../../cli/confirm.js';
import type { Context } from '../../cli/context.js';
import { fromArray } from '../../cli/list-command.js';
import { integerFlag } from '../../cli/parse.js';
import { type BulkSummary, Tally } from '../../core/bulk.js';
import type { RetryVerdict } from '../../core/listings/retry.js';
import { PartialFailure, StillPending, UsageError } from '../../errors.js';
import type { View } from '../../output/view.js';
import { listingsView } from '../../output/views/listings.js';
import { DEFAULT_WAIT_SECONDS } from '../operations/wait.js';
import { SIMULATED_NOTE, usesLiveKey } from './helpers.js';

/** Flags of `svc listings retry`. */
export interface RetryOptions {
  errorCode: string;
  channel?: string;
  channelAccount?: string;
  dryRun?: boolean;
  wait?: boolean;
  timeout: number;
  report?: string;
}

/** Resyncs in flight at once; the pacer decides when each is actually sent. */
const CONCURRENCY = 8;

/** Listings still failing (or pending) after `--wait`: one row each, with the issue. */
const verdictView: View<RetryVerdict> = {
  columns: [
    { header: 'LISTING', cell: (v) => v.listing_id },
    { header: 'STATUS', cell: (v) => v.status },
    { header: 'CODE', cell: (v) => v.code ?? '' },
    { header: 'MESSAGE', cell: (v) => v.message ?? '' },
    { header: 'OPERATION', cell: (v) => v.operation_id },
  ],
  fields: ['listing_id', 'status', 'code', 'message', 'operation_id'],
};

/** `svc listings retry --error-code CODE …`. */
export function retryCommand(parent: Command, ctx: Context): void {
  parent
    .command('retry')
    .description('resync every listing in error with one issue code, e.g. after adding the missing photos')
    .requiredOption('--error-code <code>', 'issue code to retry, e.g. photo_required_for_channel')
    .option('--channel <kind>', 'only listings on this channel kind')
    .option('--channel-account <id>', 'only listings on this channel account')
    .option('--dry-run', 'list the matching listings; send nothing')
    .option('--wait', 'follow the resyncs and report which listings still fail, with their issue')
    .option(
      '--timeout <s>',
      `with --wait: give up after S seconds (default ${DEFAULT_WAIT_SECONDS}; exit 8)`,
      integerFlag('--timeout', 0),
      DEFAULT_WAIT_SECONDS,
    )
    .option('--report <out.csv>', 'write line,key,status,code,message for every listing resynced')
    .addHelpText(
      'after',
      [
        '',
        'Every matching listing is collected first (all pages), then each is resynced once with its',
        'own Idempotency-Key, as fast as the rate limit allows. With a live key on a terminal it asks',
        'first. With --wait: exit 3 when some listings still fail, 8 when some are still pending.',
        '',
        'Examples:',
        '  svc listings retry --error-code photo_required_for_channel --dry-run',
        '  svc listings retry --error-code photo_required_for_channel --channel etsy --wait',
        '  svc listings retry --error-code missing_required_attribute --channel-account chac_123 --yes',
      ].join('\n'),
    )
    .action(async (options: RetryOptions) => runRetry(ctx, options));
}

/** Collects the matches, asks when it should, resyncs each once, and with --wait reports the verdicts. */
export async function runRetry(ctx: Context, options: RetryOptions): Promise<void> {
  if (options.errorCode.trim() === '')
    throw new UsageError('--error-code needs a code, e.g. --error-code photo_required_for_channel');
  const client = await ctx.client();
  const { checkChannelKind } = await import('../../cli/filter-check.js');
  await checkChannelKind(ctx, options.channel, { path: '/listings', param: 'channel' });
  if (options.channelAccount) {
    const { requireAccounts } = await import('../../core/listings/discovery.js');
    await requireAccounts(client, [options.channelAccount]);
  }
  const { collectFailing, resyncAll } = await import('../../core/listings/retry.js');
  const where = [
    options.channel ? `on ${options.channel}` : '',
    options.channelAccount ? `on ${options.channelAccount}` : '',
  ]
    .filter(Boolean)
    .join(' ');
  const what = `listings in error with ${options.errorCode}${where ? ` ${where}` : ''}`;
  const matches = await collectFailing(
    client,
    { errorCode: options.errorCode, channel: options.channel, channelAccountId: options.channelAccount },
    ctx.signal,
  );
  if (matches.length === 0) {
    ctx.messages.info(`No ${what}; nothing to retry.`);
    if (ctx.globals.json) await ctx.printer.item(new Tally().summary);
    return;
  }
  const count = `${matches.length.toLocaleString('en-US')} ${what}`;
  if (options.dryRun) {
    await ctx.printer.list(fromArray(matches), listingsView);
    ctx.messages.info(
      `Dry run: ${count} would be resynced in ${matches.length} requests (${matches.length} units of daily write quota). Nothing was sent.`,
    );
    return;
  }
  const live = await usesLiveKey(ctx);
  ctx.messages.info(`Found ${count}.`);
  await confirmLiveBulk(
    ctx,
    live,
    `Resync ${matches.length} listings with a LIVE key (${matches.length} requests, ${matches.length} units of daily write quota)`,
    'retry',
  );
  const { updateListing } = await import('../../api/resources/listings.js');
  const session = await BulkSession.start(ctx, {
    total: matches.length,
    noun: 'listings',
    report: options.report,
    live,
    rerunNote: '; it picks up the listings still in error',
  });
  const answers = new Map<string, Listing>();
  await session.run(() =>
    resyncAll(matches, {
      concurrency: CONCURRENCY,
      simulated: !live,
      send: (id) => {
        session.countRequest();
        return updateListing(client, id, {});
      },
      onOutcome: (outcome, answer) => {
        if (answer) answers.set(answer.id, answer);
        session.record([outcome]);
      },
      signal: ctx.signal,
      graceMs: STOP_GRACE_MS,
    }),
  );
  const summary = session.summary;
  summary.skipped += matches.length - summary.total;
  if (!options.wait || session.wasStopped) {
    await session.finish({ verb: 'Resynced' });
    if (ctx.io.stderrIsTTY) {
      ctx.messages.info(
        `Follow them with --wait, or: svc listings list --status error --error-code ${options.errorCode}`,
      );
    }
    return;
  }
  // With --wait the JSON summary comes after the wait, with the verdicts.
  const { summaryLine } = await import('../../output/summary.js');
  if (!ctx.globals.json)
    ctx.messages.info(`Resynced ${summaryLine(summary, 'listings')}${live ? '' : SIMULATED_NOTE}`);
  await followRetries(ctx, client, matches, answers, summary, options.timeout);
}

/** Waits for every resync's operation, prints the listings that still fail (or are pending), and exits 3 or 8 for them. */
async function followRetries(
  ctx: Context,
  client: ApiClient,
  matches: readonly Listing[],
  answers: ReadonlyMap<string, Listing>,
  summary: BulkSummary,
  timeoutSeconds: number,
): Promise<void> {
  const { waitForOperations } = await import('../../core/operations/wait.js');
  const { verdicts } = await import('../../core/listings/retry.js');
  const { startProgress } = await import('../../output/progress.js');
  const byListing = new Map<string, string>();
  let createdAfter: string | undefined;
  for (const match of matches) {
    const answer = answers.get(match.id);
    if (!answer?.operation_id) continue;
    byListing.set(answer.id, answer.operation_id);
    if (createdAfter === undefined || answer.updated_at < createdAfter) createdAfter = answer.updated_at;
  }
  const progress = await startProgress(ctx.io, {
    total: byListing.size,
    noun: 'operations done',
    enabled: !ctx.globals.quiet && ctx.env.CI !== 'true',
  });
  let result: Awaited<ReturnType<typeof waitForOperations>>;
  try {
    result = await waitForOperations(client, [...byListing.values()], {
      timeoutMs: timeoutSeconds * 1000,
      signal: ctx.signal,
      createdAfter,
      onProgress: ({ done }) => progress.update(done),
    });
  } finally {
    progress.stop();
  }
  const all = verdicts(byListing, result.operations);
  const listed = all.filter((verdict) => verdict.status === 'listed').length;
  const simulated = all.filter((verdict) => verdict.status === 'simulated').length;
  const unresolved = all.filter((verdict) => verdict.status === 'failing' || verdict.status === 'pending');
  const failing = unresolved.filter((verdict) => verdict.status === 'failing').length;
  const pending = unresolved.length - failing;
  if (ctx.globals.json) {
    await ctx.printer.item({
      ...summary,
      listed,
      still_failing: failing,
      still_pending: pending,
      unresolved,
    });
  } else {
    await ctx.printer.list(fromArray(unresolved), verdictView);
  }
  ctx.messages.info(
    `After the resync: ${listed.toLocaleString('en-US')} listed, ${failing.toLocaleString('en-US')} still failing${pending > 0 ? `, ${pending} still pending after ${timeoutSeconds} s` : ''}${simulated > 0 ? `, ${simulated} simulated (test key)` : ''}.`,
  );
  if (pending > 0)
    throw new StillPending(
      `${pending} resync${pending === 1 ? ' is' : 's are'} still pending; check later with svc listings list --status ongoing`,
    );
  if (failing > 0 || summary.failed > 0) {
    throw new PartialFailure(
      `${failing + summary.failed} listing${failing + summary.failed === 1 ? '' : 's'} still fail${failing + summary.failed === 1 ? 's' : ''}; the list above names each issue`,
    );
  }
}
