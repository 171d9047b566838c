/**
 * `svc listings retry` at a terminal with no --error-code: the errors summary (code × channel,
 * counts, whether the cause looks fixed) to choose from. It only chooses the flags: the retry
 * then runs as `--error-code C --channel K` would.
 */

import type { Listing } from '../../contract/schemas/listing.js';
import type { ListingReads } from '../../core/listings/reads.js';
import type { RetryChoice } from '../../core/listings/retry-choices.js';
import { plural } from '../../words.js';
import type { Deps } from '../deps.js';
import type { SelectionFlags } from './selection.js';

/** What the choice sets: the code, and the channel kind when the group names one. */
export interface ChosenRetry {
  errorCode: string;
  channel?: string;
}

/** What the flow uses of the run. */
export type GuideRetryDeps = Pick<Deps, 'io' | 'client' | 'prompts' | 'signal'>;

/**
 * Reads the listings in error (within --channel and --channel-account), checks their causes,
 * and asks which code and channel to retry. Undefined when none is in error.
 */
export async function chooseRetry(
  deps: GuideRetryDeps,
  flags: SelectionFlags,
  reads: ListingReads,
): Promise<ChosenRetry | undefined> {
  const { checkChannelKind, checkChannelAccount } = await import('../filter-check.js');
  await checkChannelKind(deps, flags.channel, { operation: 'listListings', param: 'channel' });
  await checkChannelAccount(deps, flags.channelAccount);
  const client = await deps.client();
  const { listListings } = await import('../../client/resources/listings.js');
  deps.io.messages.info('Reading the listings in error…');
  const listings: Listing[] = [];
  const filters = { status: 'error', channel: flags.channel, channel_account_id: flags.channelAccount };
  for await (const listing of listListings(client, filters, 'all', deps.signal)) listings.push(listing);
  if (listings.length === 0) {
    deps.io.messages.info('No listings in error; nothing to retry.');
    return undefined;
  }
  deps.io.messages.info(
    `Checking whether the causes of ${listings.length.toLocaleString('en-US')} ${plural(listings.length, 'listing')} look fixed (reads only)…`,
  );
  const { retryChoices } = await import('../../core/listings/retry-choices.js');
  const choices = await retryChoices(listings, reads, await accountKinds(deps, listings), deps.signal);
  return ask(deps, choices);
}

/** The kind of each account whose listings do not say it (one read, only when one does not). */
async function accountKinds(
  deps: GuideRetryDeps,
  listings: readonly Listing[],
): Promise<Map<string, string>> {
  const kinds = new Map<string, string>();
  if (listings.every((listing) => listing.channel)) return kinds;
  const { listChannelAccounts } = await import('../../client/resources/channels.js');
  for (const account of await listChannelAccounts(await deps.client()))
    kinds.set(account.id, account.channel);
  return kinds;
}

async function ask(deps: GuideRetryDeps, choices: readonly RetryChoice[]): Promise<ChosenRetry | undefined> {
  if (choices.every((choice) => !choice.causes)) {
    deps.io.messages.info('No listing in error carries an issue code to retry by; see svc listings errors.');
    return undefined;
  }
  const { retryChoiceRows } = await import('../../output/views/listings.js');
  const { UNKNOWN_CHANNEL } = await import('../../core/listings/error-summary.js');
  const { header, rows } = await retryChoiceRows(
    choices,
    deps.io.columns === undefined ? undefined : Math.max(20, deps.io.columns - 4),
  );
  const prompts = await deps.prompts();
  const chosen = await prompts.select<RetryChoice>({
    message: 'Retry which listings in error?',
    choices: [
      // Its rows are drawn two columns in (the cursor), a separator one.
      new prompts.Separator(` ${header}`),
      ...choices.map((choice, index) => ({
        value: choice,
        name: rows[index] ?? choice.error_code,
        short: choice.retry || choice.error_code,
        description: choice.retry || undefined,
        disabled: choice.causes ? false : 'listings in error with no issue code: nothing to retry by',
      })),
    ],
    pageSize: Math.min(15, choices.length + 1),
  });
  return {
    errorCode: chosen.error_code,
    ...(chosen.channel === UNKNOWN_CHANNEL ? {} : { channel: chosen.channel }),
  };
}
