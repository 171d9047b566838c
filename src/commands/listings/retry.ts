import type { ApiClient } from '../../client/client.js';
import type { BulkPlan, FollowUp } from '../../cmdutil/bulk-command.js';
import type { BulkSession } from '../../cmdutil/bulk-session.js';
import { defineCommand } from '../../cmdutil/define.js';
import type { Deps } from '../../cmdutil/deps.js';
import { type WaitFlags, waitFlags } from '../../cmdutil/follow.js';
import type { Listing } from '../../contract/schemas/listing.js';
import type { ResyncOperations } from '../../core/listings/retry.js';
import { requestsAndQuota } from '../../output/summary.js';
import { counted } from '../../words.js';

/** Flags of `svc listings retry`. */
export interface RetryOptions extends WaitFlags {
  errorCode: string;
  channel?: string;
  channelAccount?: string;
  dryRun?: boolean;
  report?: string;
}

/** What a retry uses of the run's dependencies. */
type RetryDeps = Pick<Deps, 'argv' | 'client' | 'globals' | 'io' | 'now' | 'prompts' | 'signal'>;

/** `svc listings retry --error-code CODE …`. */
export const command = defineCommand<RetryOptions>({
  path: ['listings', 'retry'],
  rank: 7,
  description: 'resync every listing in error with one issue code, e.g. after adding the missing photos',
  flags: [
    {
      flags: '--error-code <code>',
      description: 'issue code to retry, e.g. photo_required_for_channel',
      required: true,
    },
    { flags: '--channel <kind>', description: 'only listings on this channel kind' },
    { flags: '--channel-account <id>', description: 'only listings on this channel account' },
    { flags: '--dry-run', description: 'list the matching listings; send nothing' },
    ...waitFlags('follow the resyncs and report which listings still fail, with their issue'),
    {
      flags: '--report <out.csv>',
      description:
        'write line,key,status,code,message for every listing found (with --wait: listed, failed or pending)',
    },
  ],
  takes: { confirms: true },
  notes: [
    'Every matching listing is collected first (all pages), then each is resynced once with its',
    'own Idempotency-Key, as fast as the rate limit allows. With a live key on a terminal it asks',
    'first. It exits 0 only when every listing it sent succeeded; with --wait, each listing ends',
    "listed, failed (with the channel's code) or pending: exit 3 when some still fail, 8 when some",
    'are still pending.',
  ],
  examples: [
    'svc listings retry --error-code photo_required_for_channel --dry-run',
    'svc listings retry --error-code photo_required_for_channel --channel etsy --wait',
    'svc listings retry --error-code missing_required_attribute --channel-account chac_123 --yes',
  ],
  run: (options, deps) => retry(deps, options),
});

/** Collects the matches, asks when it should, resyncs each once, and with --wait reports the verdicts. */
async function retry(deps: RetryDeps, options: RetryOptions): Promise<void> {
  const client = await deps.client();
  const { checkChannelKind, checkChannelAccount, checkErrorCode } = await import(
    '../../cmdutil/filter-check.js'
  );
  await checkChannelKind(deps, options.channel, { path: '/listings', param: 'channel' });
  await checkChannelAccount(deps, options.channelAccount);
  await checkErrorCode(deps, options.errorCode);
  const { collectFailing } = await import('../../core/listings/retry.js');
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
    deps.signal,
  );
  if (matches.length === 0) {
    deps.io.messages.info(`No ${what}; nothing to retry.`);
    const { BulkLedger } = await import('../../core/outcomes.js');
    // A script reading the summary gets one with nothing in it.
    if (deps.io.wantsJson) await deps.io.printer.item(new BulkLedger(0).summary(0));
    return;
  }
  const { runBulk } = await import('../../cmdutil/bulk-command.js');
  await runBulk(
    deps,
    retryPlan(deps, matches, `${matches.length.toLocaleString('en-US')} ${what}`, options),
    options,
  );
}

/** The resyncs as the bulk frame runs them. */
function retryPlan(deps: RetryDeps, matches: Listing[], count: string, options: RetryOptions): BulkPlan {
  const answers = new Map<string, Listing>();
  return {
    noun: 'listings',
    total: matches.length,
    // Listings come from no file: their rows have no line.
    items: () => matches.map((listing) => ({ key: listing.id })),
    report: options.report,
    dryRun: async () => {
      const { fromArray } = await import('../../cmdutil/list-command.js');
      const { listingsView } = await import('../../output/views/listings.js');
      // On a table, accounts by their labels (one read), as listings list shows them.
      const labels =
        deps.io.format === 'table'
          ? await (await import('../../client/resources/channels.js')).accountLabels(await deps.client())
          : undefined;
      await deps.io.printer.list(fromArray(matches), listingsView({ labels, fixed: { status: true } }));
      deps.io.messages.info(
        `Dry run: ${count} would be resynced in ${requestsAndQuota(matches.length)}. Nothing was sent.`,
      );
    },
    prepare: () => deps.io.messages.info(`Found ${count}.`),
    confirmation: `Resync ${counted(matches.length, 'listing')} with a LIVE key (${counted(matches.length, 'request')}, ${counted(matches.length, 'unit')} of daily write quota)`,
    action: 'retry',
    send: async (session, client) => {
      const { updateListing } = await import('../../client/resources/listings.js');
      const { resyncAll } = await import('../../core/listings/retry.js');
      await resyncAll(matches, {
        ...session.runOptions,
        simulated: !client.live,
        send: (id) => {
          session.countRequest();
          return updateListing(client, id, {});
        },
        onAnswer: (answer) => answers.set(answer.id, answer),
        settle: (outcome) => session.record([outcome]),
      });
    },
    verb: 'Resynced',
    follow: options.wait
      ? async (session) => {
          const client = await deps.client();
          const { resyncOperations } = await import('../../core/listings/retry.js');
          const indexOf = new Map(matches.map((listing, index) => [listing.id, index]));
          const operations = resyncOperations(matches, answers);
          return followResyncs(deps, client, operations, indexOf, session, options.timeout);
        }
      : undefined,
    rerunNote: '; it picks up the listings still in error',
    nextStep: options.wait
      ? undefined
      : `Follow them with --wait, or: svc listings list --status error --error-code ${options.errorCode}`,
  };
}

/**
 * Follows every resync's operation and records each listing's verdict as its final outcome;
 * the listings still failing or pending are printed now, before the summary, and the verdict
 * ends the run (exit 3 for failing, 8 for pending).
 */
async function followResyncs(
  deps: Pick<Deps, 'io' | 'signal'>,
  client: ApiClient,
  resyncs: ResyncOperations,
  indexOf: ReadonlyMap<string, number>,
  session: BulkSession,
  timeoutSeconds: number,
): Promise<FollowUp> {
  const { followMany } = await import('../../cmdutil/follow.js');
  const { endOfFollow } = await import('../../core/operations/follow.js');
  const { stillFailing, tallyVerdicts, verdictOutcomes, verdicts } = await import(
    '../../core/listings/retry.js'
  );
  const followed = await followMany(deps, client, [...resyncs.byListing.values()], {
    timeoutSeconds,
    createdAfter: resyncs.createdAfter,
  });
  const all = verdicts(resyncs.byListing, followed.operations);
  session.revise(verdictOutcomes(all, indexOf));
  const { listed, failing, pending, simulated, unresolved } = tallyVerdicts(all);
  if (!deps.io.wantsJson) {
    const { fromArray } = await import('../../cmdutil/list-command.js');
    const { retryVerdictsView } = await import('../../output/views/listings.js');
    await deps.io.printer.list(fromArray(unresolved), retryVerdictsView);
  }
  return {
    json: { listed, still_failing: failing, still_pending: pending, unresolved },
    end: () => {
      deps.io.messages.info(
        `After the resync: ${listed.toLocaleString('en-US')} listed, ${failing.toLocaleString('en-US')} still failing${pending > 0 ? `, ${pending} still pending after ${timeoutSeconds} s` : ''}${simulated > 0 ? `, ${simulated} simulated (test key)` : ''}.`,
      );
      // Refused at the resync, or by the channel after it: every failed listing, from the record.
      endOfFollow(followed, stillFailing(session.ledger.count('failed')));
    },
  };
}
