import type { Command } from 'commander';
import type { Context } from '../../cmdutil/context.js';
import { fromArray } from '../../cmdutil/list-command.js';
import type { ErrorGroup } from '../../core/listings/error-summary.js';
import type { View } from '../../output/view.js';
import { plural } from '../../words.js';

/** Flags of `svc listings errors`. */
export interface ErrorsOptions {
  byAccount?: boolean;
}

/** `svc listings errors`: error code × channel kind (× account), with counts and the retry for each. */
export function errorsCommand(parent: Command, ctx: Context, run = runErrors): Command {
  return parent
    .command('errors')
    .description(
      'what is broken on which channel: listings in error by issue code and channel, with the retry for each',
    )
    .option('--by-account', 'one row per channel account rather than per channel kind')
    .addHelpText(
      'after',
      [
        '',
        'Pages through the listings in error once. A listing counts once under each issue code it',
        'carries (as `listings retry --error-code` selects it). Rows are sorted by count, each with',
        'the oldest and newest update and the command that retries exactly those listings.',
        '',
        'Examples:',
        '  svc listings errors',
        '  svc listings errors --by-account --json',
      ].join('\n'),
    )
    .action(async (options: ErrorsOptions) => run(ctx, options));
}

/** Crawls the listings in error once, then prints the groups and a one-line total. */
export async function runErrors(ctx: Context, options: ErrorsOptions): Promise<void> {
  const { listListings } = await import('../../client/resources/listings.js');
  const { ErrorSummary } = await import('../../core/listings/error-summary.js');
  const client = await ctx.client();
  const summary = new ErrorSummary();
  for await (const listing of listListings(client, { status: 'error' }, 'all', ctx.signal))
    summary.add(listing);
  // Only when some listing does not say its channel: one read of the accounts names the kinds.
  const missing = summary.accountsWithoutKind();
  const kinds = new Map<string, string>();
  if (missing.length > 0) {
    const { listChannelAccounts } = await import('../../client/resources/channels.js');
    for (const account of await listChannelAccounts(client)) kinds.set(account.id, account.channel);
  }
  const groups = summary.groups(Boolean(options.byAccount), kinds);
  // On a table, accounts by their labels (one read), as listings list shows them.
  const labels =
    options.byAccount && ctx.io.format === 'table'
      ? await (await import('../../client/resources/channels.js')).accountLabels(client)
      : undefined;
  await ctx.io.printer.list(fromArray(groups), errorsView(Boolean(options.byAccount), labels));
  ctx.io.messages.info(
    summary.listings === 0
      ? 'No listings in error.'
      : `${summary.listings.toLocaleString('en-US')} ${plural(summary.listings, 'listing')} in error.`,
  );
}

function errorsView(byAccount: boolean, labels?: ReadonlyMap<string, string>): View<ErrorGroup> {
  return {
    columns: [
      { header: 'CODE', cell: (g) => g.error_code },
      { header: 'CHANNEL', cell: (g) => g.channel },
      ...(byAccount
        ? [
            {
              header: 'ACCOUNT',
              cell: (g: ErrorGroup) =>
                labels?.get(g.channel_account_id ?? '') || (g.channel_account_id ?? ''),
              shrink: labels !== undefined,
              drop: 4,
            },
          ]
        : []),
      { header: 'LISTINGS', cell: (g) => g.listings.toLocaleString('en-US') },
      { header: 'OLDEST', time: (g) => g.oldest_updated_at, drop: 2 },
      { header: 'NEWEST', time: (g) => g.newest_updated_at, drop: 3 },
      // A command cut short is no use: it is shown whole or, on a narrow terminal, left out.
      { header: 'RETRY', cell: (g) => g.retry, drop: 1 },
    ],
    fields: [
      'error_code',
      'channel',
      ...(byAccount ? ['channel_account_id'] : []),
      'listings',
      'oldest_updated_at',
      'newest_updated_at',
      'retry',
    ],
  };
}
