import { defineCommand } from '../../cmdutil/define.js';
import { printList } from '../../cmdutil/list-command.js';
import { timeParser } from '../../cmdutil/parse.js';
import { listingsView } from '../../output/views/listings.js';
import { listingFields } from './fields.js';

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
export const command = defineCommand<ListingsListOptions>({
  path: ['listings', 'list'],
  rank: 1,
  description: 'list listings, most recently updated first',
  flags: [
    { flags: '--product <id>', description: 'listings of one product' },
    { flags: '--channel-account <id>', description: 'listings on one channel account' },
    { flags: '--channel <kind>', description: 'channel kind (every account of that kind)' },
    { flags: '--status <status>', description: 'listed, imported, ongoing, error, delisted' },
    {
      flags: '--error-code <code>',
      description: 'only listings with this issue code, e.g. photo_required_for_channel',
    },
    {
      flags: '--updated-after <time>',
      description: 'ISO 8601 or a duration back from now',
      parse: timeParser('--updated-after'),
    },
  ],
  takes: { list: true },
  fields: listingFields,
  examples: [
    'svc listings list --status error',
    'svc listings list --status error --error-code photo_required_for_channel --all',
  ],
  async run(options, deps) {
    const { listListings } = await import('../../client/resources/listings.js');
    const { checkStatus, checkChannelKind, checkChannelAccount, checkErrorCode, checkNotBlank } =
      await import('../../cmdutil/filter-check.js');
    const route = (param: string) => ({ path: '/listings', param });
    const status = checkStatus('listings', options.status, route('status'));
    const filters = {
      product_id: checkNotBlank('--product', options.product),
      channel_account_id: await checkChannelAccount(
        deps,
        options.channelAccount,
        route('channel_account_id'),
      ),
      channel: await checkChannelKind(deps, options.channel, route('channel')),
      status,
      error_code: await checkErrorCode(deps, options.errorCode),
      updated_after: options.updatedAfter,
    };
    const client = await deps.client();
    // On a table, accounts by their labels: one read, shared with the --channel check.
    const labels =
      deps.io.format === 'table'
        ? await (await import('../../client/resources/channels.js')).accountLabels(client)
        : undefined;
    const listings = listListings(client, filters, deps.io.listLimit);
    await printList(deps, listings, listingsView(labels), 'listings');
  },
});
