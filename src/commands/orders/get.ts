import type { Command } from 'commander';
import type { Context } from '../../cmdutil/context.js';
import { orderView, SHOW_BUYER_HELP } from './buyer.js';

/** Flags of `svc orders get`. */
export interface OrdersGetOptions {
  showBuyer?: boolean;
}

/** `svc orders get ID`: one order in full; the buyer's personal data on request. */
export function getCommand(parent: Command, ctx: Context, run = runGet): Command {
  return parent
    .command('get')
    .description('show one order in full: lines, tracking, and the buyer with --show-buyer')
    .argument('<id>', 'order id (ord_…)')
    .option('--show-buyer', SHOW_BUYER_HELP)
    .addHelpText(
      'after',
      '\nExamples:\n  svc orders get ord_123\n  svc orders get ord_123 --show-buyer\n  svc orders get ord_123 --json | jq .buyer.address\n',
    )
    .action(async (id: string, options: OrdersGetOptions) => run(ctx, id, options));
}

/** Runs `svc orders get` once its flags are parsed. */
export async function runGet(ctx: Context, id: string, options: OrdersGetOptions = {}): Promise<void> {
  const view = await orderView(ctx, Boolean(options.showBuyer));
  const { getOrder } = await import('../../client/resources/orders.js');
  await ctx.io.printer.item(await getOrder(await ctx.client(), id), { view });
}
