import { accountLabels } from '../../client/resources/channels.js';
import { quotaSpentNote } from '../../cmdutil/bulk-command.js';
import { defineCommand } from '../../cmdutil/define.js';
import { type WaitFlags, waitFlags } from '../../cmdutil/follow.js';
import { guideOrRefuse } from '../../cmdutil/guide.js';
import { fromArray } from '../../cmdutil/list-command.js';
import { type ResyncDeps, runResync } from '../../cmdutil/listings/resync-plan.js';
import { chooseRetry } from '../../cmdutil/listings/retry-guided.js';
import { type Selection, selectFailing, selectionFlags } from '../../cmdutil/listings/selection.js';
import { rerunCommand } from '../../cmdutil/rerun.js';
import type { Listing } from '../../contract/schemas/listing.js';
import { type CauseCheck, checkCauses, type RetryPlanned } from '../../core/listings/cause.js';
import { ListingReads } from '../../core/listings/reads.js';
import { BulkLedger, type Verdict } from '../../core/outcomes.js';
import { requestsAndQuota } from '../../output/summary.js';
import { retryPlanView } from '../../output/views/listings.js';
import { counted, plural } from '../../words.js';

/** Flags of `svc listings retry`. */
export interface RetryOptions extends WaitFlags {
  /** Absent: at a terminal, chosen from the errors summary. */
  errorCode?: string;
  channel?: string;
  channelAccount?: string;
  dryRun?: boolean;
  report?: string;
  includeUnfixed?: boolean;
}

/** `svc listings retry --error-code CODE …`. */
export const command = defineCommand<RetryOptions>({
  path: ['listings', 'retry'],
  rank: 7,
  description: 'resync every listing in error with one issue code, e.g. after adding the missing photos',
  flags: [
    ...selectionFlags({
      description:
        'issue code to retry, e.g. photo_required_for_channel (at a terminal, without it: chosen from the errors summary)',
    }),
    { flags: '--dry-run', description: 'list the matching listings and which would be sent; send nothing' },
    ...waitFlags('follow the resyncs and report which listings still fail, with their issue'),
    {
      flags: '--report <out.csv>',
      description:
        'write line,key,status,code,message for every listing found (with --wait: listed, failed or pending; unfixed when not sent)',
    },
    {
      flags: '--include-unfixed',
      description: 'send listings whose cause looks unchanged too (by default they are not sent)',
    },
  ],
  takes: { confirms: true },
  notes: [
    'Every matching listing is collected first (all pages). Before sending, svc checks what the',
    'code names: an image of the product (photo_required_for_channel), the required attributes of',
    "the listing's category and those the issue names (missing_required_attribute), the category",
    '(category_invalid). A listing whose cause looks unchanged would fail again: it is not sent,',
    'and ends `unfixed` (counted in the summary and the report); --include-unfixed sends it anyway.',
    'Each listing sent is resynced once with its own Idempotency-Key, as fast as the rate limit',
    'allows. With a live key on a terminal it asks first. It exits 0 when every listing it sent',
    "succeeded; with --wait, each listing sent ends listed, failed (with the channel's code) or",
    'pending: exit 3 when some still fail, 8 when some are still pending.',
    '',
    'Without --error-code, svc asks at a terminal: it shows the errors summary (code and channel,',
    'listings, how many look fixed) to choose from, then runs exactly what `--error-code C',
    '--channel K` runs. It asks only when standard input and output are terminals and neither',
    '--no-input, --yes nor CI=true is set; otherwise it stops (exit 2) and names --error-code.',
  ],
  examples: [
    'svc listings retry --error-code photo_required_for_channel --dry-run',
    'svc listings retry --error-code photo_required_for_channel --channel etsy --wait',
    'svc listings retry --error-code missing_required_attribute --channel-account chac_123 --yes',
    'svc listings retry --error-code category_invalid --include-unfixed   # send them all anyway',
    'svc listings retry   # at a terminal: choose from the errors summary',
  ],
  run: (options, deps) => retryOrChoose(deps, options),
});

/** With --error-code, the retry; without, at a terminal, the retry of the group chosen from the errors summary. */
async function retryOrChoose(deps: ResyncDeps, options: RetryOptions): Promise<void> {
  const { errorCode } = options;
  if (errorCode !== undefined) return retry(deps, { ...options, errorCode });
  guideOrRefuse(
    deps,
    'give the issue code to retry, e.g. --error-code photo_required_for_channel (svc listings errors lists them)',
  );
  const reads = new ListingReads(await deps.client(), deps.signal);
  const chosen = await chooseRetry(deps, options, reads);
  if (!chosen) return;
  // Said, and resumed, as the flags it stands for: a stop names the command that runs the rest.
  const argv = [...deps.argv, '--error-code', chosen.errorCode];
  if (chosen.channel !== undefined && options.channel === undefined) argv.push('--channel', chosen.channel);
  deps.io.messages.info(`Running ${rerunCommand(argv)}`);
  const { client, globals, io, now, prompts, signal } = deps;
  await retry({ argv, client, globals, io, now, prompts, signal }, { ...options, ...chosen }, reads);
}

/** Collects the matches, holds back those whose cause looks unchanged, asks, resyncs, and with --wait reports the verdicts. */
async function retry(
  deps: ResyncDeps,
  options: RetryOptions & { errorCode: string },
  shared?: ListingReads,
): Promise<void> {
  const selection = await selectFailing(deps, options);
  const { matches, what } = selection;
  if (matches.length === 0) {
    deps.io.messages.info(`No ${what}; nothing to retry.`);
    // A script reading the summary gets one with nothing in it.
    if (deps.io.wantsJson) await deps.io.printer.item({ ...new BulkLedger(0).summary(0), unfixed: 0 });
    return;
  }
  const reads = shared ?? new ListingReads(await deps.client(), deps.signal);
  const checks = options.includeUnfixed
    ? new Map<string, CauseCheck>()
    : await checkCauses(reads, matches, options.errorCode, deps.signal);
  const held = new Map<string, Verdict>();
  for (const [id, check] of checks) {
    if (check.state !== 'unchanged') continue;
    held.set(id, {
      status: 'unfixed',
      code: options.errorCode,
      message: `not sent: ${check.reason}; --include-unfixed sends it`,
    });
  }
  const count = `${matches.length.toLocaleString('en-US')} ${what}`;
  await runResync(deps, {
    selection,
    held,
    body: {},
    dryRun: () => showRetryDryRun(deps, selection, checks, held.size, count),
    ask: 'Resync',
    verb: 'Resynced',
    action: 'retry',
    flags: options,
    rerunNote: '; it picks up the listings still in error',
    heldNote: held.size > 0 ? heldNote(held.size, checks) : undefined,
    json: (record) => ({ unfixed: record.count('unfixed') }),
    reads,
  });
}

/** "8 of them look unfixed and are not sent: the product still has no image (8). …". */
function heldNote(held: number, checks: ReadonlyMap<string, CauseCheck>): string {
  return `${held.toLocaleString('en-US')} of them look unfixed and ${plural(held, 'is', 'are')} not sent: ${reasons(checks)}. Send ${plural(held, 'it', 'them')} anyway with --include-unfixed.`;
}

/** The reasons of the unchanged checks, most frequent first, with their counts (the first three). */
function reasons(checks: ReadonlyMap<string, CauseCheck>): string {
  const counts = new Map<string, number>();
  for (const check of checks.values())
    if (check.state === 'unchanged') counts.set(check.reason, (counts.get(check.reason) ?? 0) + 1);
  const sorted = [...counts].sort((a, b) => b[1] - a[1]);
  const shown = sorted.slice(0, 3).map(([reason, n]) => `${reason} (${n.toLocaleString('en-US')})`);
  const more = sorted.length - shown.length;
  return `${shown.join('; ')}${more > 0 ? `; ${more} other ${plural(more, 'reason')}` : ''}`;
}

/** The matches, each with whether it would be sent and why; then what would be sent and spent. */
async function showRetryDryRun(
  deps: ResyncDeps,
  selection: Selection,
  checks: ReadonlyMap<string, CauseCheck>,
  held: number,
  count: string,
): Promise<void> {
  const planned = selection.matches.map((listing): Listing & { retry: RetryPlanned } => {
    const check = checks.get(listing.id);
    return {
      ...listing,
      retry: {
        send: check?.state !== 'unchanged',
        cause: check?.state ?? 'not_checked',
        reason: check?.reason ?? 'not checked (--include-unfixed)',
      },
    };
  });
  // On a table, accounts by their labels (one read), as listings list shows them.
  const labels = deps.io.format === 'table' ? await accountLabels(await deps.client()) : undefined;
  await deps.io.printer.list(fromArray(planned), retryPlanView(labels));
  const sent = planned.length - held;
  const unfixed =
    held > 0
      ? `; ${counted(held, 'listing')} ${plural(held, 'looks', 'look')} unfixed and would not be sent (--include-unfixed sends them)`
      : '';
  const which = sent === planned.length ? count : `${sent.toLocaleString('en-US')} of ${count}`;
  const { sentence } = await quotaSpentNote(deps, `${which} would be resynced in ${requestsAndQuota(sent)}`);
  deps.io.messages.info(`Dry run: ${sentence}${unfixed}. Nothing was sent.`);
}
