import { accountLabels, listChannelAccounts } from '../../client/resources/channels.js';
import { listListings } from '../../client/resources/listings.js';
import { defineCommand } from '../../cmdutil/define.js';
import { fixedFields } from '../../cmdutil/fields.js';
import { fromArray } from '../../cmdutil/list-command.js';
import { ErrorSummary } from '../../core/listings/error-summary.js';
import { errorsView } from '../../output/views/listings.js';
import { plural } from '../../words.js';

/** Flags of `svc listings errors`. */
export interface ErrorsOptions {
  byAccount?: boolean;
}

/** `svc listings errors`: error code × channel kind (× account), with counts and the retry for each. */
export const command = defineCommand<ErrorsOptions>({
  path: ['listings', 'errors'],
  rank: 8,
  description:
    'what is broken on which channel: listings in error by issue code and channel, with the retry for each',
  flags: [{ flags: '--by-account', description: 'one row per channel account rather than per channel kind' }],
  fields: fixedFields([
    'error_code',
    'channel',
    'channel_account_id',
    'listings',
    'oldest_updated_at',
    'newest_updated_at',
    'retry',
  ]),
  notes: [
    'Pages through the listings in error once. A listing counts once under each issue code it',
    'carries (as `listings retry --error-code` selects it). Rows are sorted by count, each with',
    'the oldest and newest update and the command that retries exactly those listings.',
  ],
  examples: ['svc listings errors', 'svc listings errors --by-account --json'],
  /** Crawls the listings in error once, then prints the groups and a one-line total. */
  async run({ byAccount = false }, deps) {
    const client = await deps.client();
    const summary = new ErrorSummary();
    for await (const listing of listListings(client, { status: 'error' }, 'all', deps.signal))
      summary.add(listing);
    // Only when some listing does not say its channel: one read of the accounts names the kinds.
    const missing = summary.accountsWithoutKind();
    const kinds = new Map<string, string>();
    if (missing.length > 0) {
      for (const account of await listChannelAccounts(client)) kinds.set(account.id, account.channel);
    }
    const groups = summary.groups(byAccount, kinds);
    // On a table, accounts by their labels (one read), as listings list shows them.
    const labels = byAccount && deps.io.format === 'table' ? await accountLabels(client) : undefined;
    await deps.io.printer.list(fromArray(groups), errorsView(byAccount, labels));
    deps.io.messages.info(
      summary.listings === 0
        ? 'No listings in error.'
        : `${summary.listings.toLocaleString('en-US')} ${plural(summary.listings, 'listing')} in error.`,
    );
  },
});
