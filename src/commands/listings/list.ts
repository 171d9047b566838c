import type { ApiClient } from '../../client/client.js';
import { byUpdatedAt } from '../../client/merged-list.js';
import { accountLabels } from '../../client/resources/channels.js';
import { type ListingFilters, listListings } from '../../client/resources/listings.js';
import { defineCommand } from '../../cmdutil/define.js';
import type { Deps } from '../../cmdutil/deps.js';
import { listingFields } from '../../cmdutil/fields/listings.js';
import {
  checkChannelAccount,
  checkChannelKinds,
  checkErrorCode,
  checkNotBlank,
  checkStatuses,
} from '../../cmdutil/filter-check.js';
import { type ListItems, listEach, printList } from '../../cmdutil/list-command.js';
import { TIME_HELP, timeParser } from '../../cmdutil/parse.js';
import type { Listing } from '../../contract/schemas/listing.js';
import { ListingReads } from '../../core/listings/reads.js';
import { productTitles } from '../../core/listings/titles.js';
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
export const command = defineCommand<ListingsListOptions>({
  path: ['listings', 'list'],
  rank: 1,
  description: 'list listings, most recently updated first',
  flags: [
    { flags: '--product <id>', description: 'listings of one product' },
    { flags: '--channel-account <id>', description: 'listings on one channel account' },
    {
      flags: '--channel <kind>',
      description: 'channel kind (every account of that kind); several comma-separated',
    },
    {
      flags: '--status <status>',
      description: 'listed, imported, ongoing, error, delisted; several comma-separated',
    },
    {
      flags: '--error-code <code>',
      description: 'only listings with this issue code, e.g. photo_required_for_channel',
    },
    {
      flags: '--updated-after <time>',
      description: TIME_HELP,
      parse: timeParser('--updated-after'),
    },
  ],
  takes: { list: true },
  fields: listingFields,
  examples: [
    'svc listings list --status error',
    'svc listings list --status error --error-code photo_required_for_channel --all',
    'svc listings list --status error,delisted --channel etsy,ebay',
  ],
  async run(options, deps) {
    const route = (param: string) => ({ operation: 'listListings' as const, param });
    const statuses = checkStatuses('listings', options.status, route('status'));
    const filters = {
      product_id: checkNotBlank('--product', options.product),
      channel_account_id: await checkChannelAccount(
        deps,
        options.channelAccount,
        route('channel_account_id'),
      ),
      error_code: await checkErrorCode(deps, options.errorCode),
      updated_after: options.updatedAfter,
    };
    const channels = await checkChannelKinds(deps, options.channel, route('channel'));
    const client = await deps.client();
    const limit = deps.io.listLimit;
    const listings = await listEach<ListingFilters, Listing>(
      filters,
      { status: statuses, channel: channels },
      (each) => listListings(client, each, limit),
      byUpdatedAt,
      limit,
    );
    if (!showsColumns(deps)) {
      await printList(deps, listings, listingsView(), 'listings');
      return;
    }
    // On a table, accounts by their labels: one read, shared with the --channel check.
    const labels = await accountLabels(client);
    const titles = new Map<string, string>();
    // A column is fixed when a filter leaves it one value: --status error, not --status error,delisted.
    const fixed = {
      status: statuses?.length === 1,
      channel: channels?.length === 1,
      account: filters.channel_account_id !== undefined,
    };
    await printList(
      deps,
      withTitles(client, listings, titles, deps.signal),
      listingsView({ labels, titles, fixed }),
      'listings',
    );
  },
});

/** A table of the view's own columns (not --fields, not --query): the one output with titles and labels. */
function showsColumns(deps: Pick<Deps, 'io' | 'globals'>): boolean {
  return deps.io.format === 'table' && !deps.globals.fields && !deps.io.query;
}

/**
 * The listings, once their products' titles are in `titles` (a table is drawn from every row
 * at once anyway): the crawl first, then one read per distinct product without a title
 * override. A crawl that fails midway still shows what it read (without titles), then fails.
 */
function withTitles(
  client: ApiClient,
  listings: ListItems<Listing>,
  titles: Map<string, string>,
  signal: AbortSignal,
): ListItems<Listing> {
  return {
    get hasMore() {
      return listings.hasMore;
    },
    async *[Symbol.asyncIterator]() {
      const read: Listing[] = [];
      let failure: unknown;
      try {
        for await (const listing of listings) read.push(listing);
      } catch (error) {
        failure = error;
      }
      if (failure === undefined) {
        for (const [id, title] of await productTitles(new ListingReads(client, signal), read))
          titles.set(id, title);
      }
      yield* read;
      if (failure !== undefined) throw failure;
    },
  };
}
