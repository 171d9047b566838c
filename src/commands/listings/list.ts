import type { Command } from 'commander';
import type { Context } from '../../cmdutil/context.js';
import { printList } from '../../cmdutil/list-command.js';
import { timeFlag } from '../../cmdutil/parse.js';
import { listingsView } from '../../output/views/listings.js';

/** Flags of `svc listings list`. */
export interface ListingsListOptions {
  product?: string;
  channelAccount?: string;
  channel?: string;
  status?: string;
  errorCode?: string;
  updatedAfter?: string;
}

/** `svc listings list`: with every filter of the API. */
export function listCommand(parent: Command, ctx: Context, run = runList): Command {
  return parent
    .command('list')
    .description('list listings, most recently updated first')
    .option('--product <id>', 'listings of one product')
    .option('--channel-account <id>', 'listings on one channel account')
    .option('--channel <kind>', 'channel kind (every account of that kind)')
    .option('--status <status>', 'listed, imported, ongoing, error, delisted')
    .option('--error-code <code>', 'only listings with this issue code, e.g. photo_required_for_channel')
    .option(
      '--updated-after <time>',
      'ISO 8601 or a duration back from now',
      timeFlag('--updated-after', ctx.now),
    )
    .addHelpText(
      'after',
      '\nExamples:\n  svc listings list --status error\n  svc listings list --status error --error-code photo_required_for_channel --all\n',
    )
    .action(async (options: ListingsListOptions) => run(ctx, options));
}

/** Runs `svc listings list` once its flags are parsed. */
export async function runList(ctx: Context, options: ListingsListOptions): Promise<void> {
  const { listListings } = await import('../../client/resources/listings.js');
  const { checkStatus, checkChannelKind, checkChannelAccount, checkErrorCode, checkNotBlank } = await import(
    '../../cmdutil/filter-check.js'
  );
  const route = (param: string) => ({ path: '/listings', param });
  const status = checkStatus('listings', options.status, route('status'));
  const filters = {
    product_id: checkNotBlank('--product', options.product),
    channel_account_id: await checkChannelAccount(ctx, options.channelAccount, route('channel_account_id')),
    channel: await checkChannelKind(ctx, options.channel, route('channel')),
    status,
    error_code: await checkErrorCode(ctx, options.errorCode),
    updated_after: options.updatedAfter,
  };
  const client = await ctx.client();
  // On a table, accounts by their labels: one read, shared with the --channel check.
  const labels =
    ctx.io.format === 'table'
      ? await (await import('../../client/resources/channels.js')).accountLabels(client)
      : undefined;
  await printList(ctx, listListings(client, filters, ctx.io.listLimit), listingsView(labels), 'listings');
}
