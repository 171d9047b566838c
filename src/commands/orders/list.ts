import type { Command } from 'commander';
import type { OrderFilters } from '../../api/resources/orders.js';
import type { Context } from '../../cli/context.js';
import { printList } from '../../cli/list-command.js';
import { timeFlag } from '../../cli/parse.js';
import { ordersView } from '../../output/views/orders.js';

/** Flags of `svc orders list`. */
export interface OrdersListOptions {
  status?: string;
  channel?: string;
  channelAccount?: string;
  createdAfter?: string;
  showBuyer?: boolean;
}

/** `svc orders list`: the operator's morning list. */
export function listCommand(parent: Command, ctx: Context): void {
  parent
    .command('list')
    .description('list orders, newest activity first')
    .option('--status <status>', 'awaiting_payment, awaiting_shipment, shipped, canceled, refunded, partially_refunded')
    .option('--channel <kind>', 'channel kind (every account of that kind)')
    .option('--channel-account <id>', 'one channel account')
    .option('--created-after <time>', 'ISO 8601 or a duration back from now (24h, 7d)', timeFlag('--created-after', ctx.now))
    .option('--show-buyer', 'show buyer name, email and address in tables and csv')
    .addHelpText(
      'after',
      '\nExamples:\n  svc orders list --status awaiting_shipment\n  svc orders list --created-after 24h --all -o csv > orders.csv\n',
    )
    .action(async (options: OrdersListOptions) => runOrdersList(ctx, options));
}

/** Lists orders matching the filters. */
export async function runOrdersList(ctx: Context, options: OrdersListOptions): Promise<void> {
  const { listOrders } = await import('../../api/resources/orders.js');
  const filters: OrderFilters = {
    status: options.status,
    channel: options.channel,
    channel_account_id: options.channelAccount,
    created_after: options.createdAfter,
  };
  const client = await ctx.client();
  await printList(ctx, listOrders(client, filters, ctx.listLimit), ordersView(Boolean(options.showBuyer)), 'orders');
}
