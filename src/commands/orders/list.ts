import type { ApiClient } from '../../client/client.js';
import { byUpdatedAt } from '../../client/merged-list.js';
import { listChannelAccounts } from '../../client/resources/channels.js';
import { listOrders, type OrderFilters } from '../../client/resources/orders.js';
import { defineCommand } from '../../cmdutil/define.js';
import type { Deps } from '../../cmdutil/deps.js';
import { checkChannelAccount, checkChannelKinds, checkStatuses } from '../../cmdutil/filter-check.js';
import { listEach, printList } from '../../cmdutil/list-command.js';
import { orderFields, orderView, SHOW_BUYER_HELP } from '../../cmdutil/orders/buyer.js';
import { TIME_HELP, timeParser } from '../../cmdutil/parse.js';
import { configDir } from '../../config/config-store.js';
import {
  checkMarkName,
  checkSameExport,
  markPath,
  readMark,
  storeToSave,
  writeMark,
} from '../../config/marks.js';
import { markStoreOf, storeIdentity } from '../../config/store-identity.js';
import type { Order } from '../../contract/schemas/order.js';
import { IncrementalExport } from '../../core/orders/incremental-export.js';
import { ApiError, UsageError } from '../../errors.js';
import type { View } from '../../output/view.js';
import { plural } from '../../words.js';

/** Flags of `svc orders list`. */
export interface OrdersListOptions {
  status?: string;
  channel?: string;
  channelAccount?: string;
  createdAfter?: string;
  sinceLast?: string;
  showBuyer?: boolean;
  perLine?: boolean;
}

/** `svc orders list`: the operator's morning list. */
export const command = defineCommand<OrdersListOptions>({
  path: ['orders', 'list'],
  rank: 1,
  description: 'list orders, newest activity first',
  flags: [
    {
      flags: '--status <status>',
      description:
        'awaiting_payment, awaiting_shipment, shipped, canceled, refunded, partially_refunded; several comma-separated',
    },
    {
      flags: '--channel <kind>',
      description: 'channel kind (every account of that kind); several comma-separated',
    },
    { flags: '--channel-account <id>', description: 'one channel account' },
    {
      flags: '--created-after <time>',
      description: TIME_HELP,
      parse: timeParser('--created-after'),
    },
    {
      flags: '--since-last <name>',
      description:
        'incremental export: every order created since the export saved under NAME, each once; moves the mark when done',
    },
    { flags: '--show-buyer', description: SHOW_BUYER_HELP },
    {
      flags: '--per-line',
      description: 'a row per order line in table, csv and tsv (also when a lines.* field is selected)',
    },
  ],
  takes: { list: true },
  fields: orderFields,
  notes: [
    '--since-last NAME remembers, in the config dir, where the last export under NAME ended (by the',
    "service's clock) and starts there next time; the first run starts at --created-after, or at the",
    'beginning. It always crawls to the end (like --all), and the mark moves only when the export finished.',
    'The mark is on creation time: each order comes once, in the first export after it was created,',
    'so with --status an order is seen once, in the status it had then (one that was awaiting payment',
    'then and has shipped since does not come again). The mark belongs to the store (the service',
    'address and its channel accounts), not to the key: after a routine key rotation, or from another',
    "profile of the same store, the export carries on; another store's export needs another NAME.",
  ],
  examples: [
    'svc orders list --status awaiting_shipment',
    'svc orders list --status awaiting_payment,awaiting_shipment --created-after today',
    'svc orders list --created-after 24h --all -o csv > orders.csv',
    'svc orders list --since-last accounting -o csv > "orders-$(date +%F).csv"',
    'svc orders list --status awaiting_shipment --fields id,lines.sku,lines.quantity -o csv',
    "svc orders list --status awaiting_shipment --all --query 'length(@)'",
  ],
  run: runOrdersList,
});

/** What listing orders uses. */
type ListDeps = Pick<Deps, 'io' | 'globals' | 'client' | 'credentials' | 'env' | 'signal'>;

/** Lists orders matching the filters; several values of --status or --channel, one crawl each, merged. */
async function runOrdersList(options: OrdersListOptions, deps: ListDeps): Promise<void> {
  const route = (param: string) => ({ operation: 'listOrders' as const, param });
  const statuses = checkStatuses('orders', options.status, route('status'));
  const channels = await checkChannelKinds(deps, options.channel, route('channel'));
  const filters: OrderFilters = {
    channel_account_id: await checkChannelAccount(deps, options.channelAccount, route('channel_account_id')),
    created_after: options.createdAfter,
  };
  const view = await orderView(deps, Boolean(options.showBuyer), Boolean(options.perLine));
  if (options.sinceLast !== undefined) {
    // The mark follows one list: one value of each.
    for (const [flag, values] of [
      ['--status', statuses],
      ['--channel', channels],
    ] as const) {
      if (values && values.length > 1)
        throw new UsageError(
          `--since-last follows one list, so ${flag} takes one value here; export each under its own NAME (--since-last NAME-${values[0]} ${flag} ${values[0]}, …)`,
        );
    }
    return runSinceLast(
      deps,
      options.sinceLast,
      { ...filters, status: statuses?.[0], channel: channels?.[0] },
      view,
    );
  }
  const client = await deps.client();
  const limit = deps.io.listLimit;
  const orders = await listEach(
    filters,
    { status: statuses, channel: channels },
    (each) => listOrders(client, each, limit),
    byUpdatedAt,
    limit,
  );
  await printList(deps, orders, view, 'orders');
}

/** `--since-last NAME`: the orders created since the saved mark, each once; then the mark moves. */
async function runSinceLast(
  deps: ListDeps,
  name: string,
  filters: OrderFilters,
  view: View<Order>,
): Promise<void> {
  if (deps.globals.limit !== undefined) {
    throw new UsageError(
      '--since-last exports every order since the mark, so it cannot take --limit (a partial export would move the mark past orders not yet exported)',
    );
  }
  checkMarkName(name);
  const dir = configDir(deps.env);
  const mark = await readMark(dir, name);
  const { created_after: initialCreatedAfter, ...rest } = filters;
  const markFilters = Object.fromEntries(
    Object.entries(rest).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
  const { baseUrl, keyHash } = storeIdentity(await deps.credentials());
  const client = await deps.client();
  const accountIds = await storeAccounts(client);
  const channelAccounts = accountIds && markStoreOf(baseUrl, accountIds).channelAccounts;
  const runStore = { filters: markFilters, baseUrl, channelAccounts, keyHash, markFile: markPath(dir, name) };
  const note = mark ? checkSameExport(name, mark, runStore) : undefined;
  if (note) deps.io.messages.info(note);
  if (channelAccounts === undefined) {
    deps.io.messages.info(
      `this key cannot list the store's channel accounts (it lacks products:read), so the mark "${name}" is tied to the key: a new key will not carry on from it`,
    );
  }

  const run = new IncrementalExport(
    (createdAfter, onPage) =>
      listOrders(client, { ...rest, created_after: createdAfter }, 'all', { onPage, signal: deps.signal }),
    { mark, initialCreatedAfter },
  );
  await printList(deps, run.orders(), view, 'orders', { toTheEnd: true });
  const next = run.nextMark();
  if (!next) {
    deps.io.messages.info(`No orders and no service clock seen; the mark "${name}" was not moved.`);
    return;
  }
  await writeMark(dir, name, {
    createdAfter: next.createdAfter,
    boundaryIds: [...next.boundaryIds],
    filters: markFilters,
    baseUrl,
    store: storeToSave(runStore),
    exported: run.exported,
    savedAt: (client.lastServerDate ?? new Date(next.createdAfter)).toISOString(),
  });
  const since = run.since ? `created since ${run.since}` : 'created so far';
  deps.io.messages.info(
    `Exported ${run.exported.toLocaleString('en-US')} ${plural(run.exported, 'order')} ${since}; the mark "${name}" now stands at ${next.createdAfter}.`,
  );
}

/**
 * The ids of the store's channel accounts, which name the store a mark belongs to; undefined
 * when the key may not list them (403: it lacks products:read).
 */
async function storeAccounts(client: ApiClient): Promise<string[] | undefined> {
  try {
    return (await listChannelAccounts(client)).map((account) => account.id);
  } catch (error) {
    if (error instanceof ApiError && error.status === 403) return undefined;
    throw error;
  }
}
