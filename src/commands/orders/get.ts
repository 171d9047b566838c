import type { Command } from 'commander';
import type { Context } from '../../cmdutil/context.js';

/** `svc orders get ID`: one order in full, buyer included. */
export function getCommand(parent: Command, ctx: Context): void {
  parent
    .command('get')
    .description('show one order in full, buyer and lines included')
    .argument('<id>', 'order id (ord_…)')
    .addHelpText(
      'after',
      '\nExamples:\n  svc orders get ord_123\n  svc orders get ord_123 --json | jq .buyer.address\n',
    )
    .action(async (id: string) => {
      const { getOrder } = await import('../../api/resources/orders.js');
      await ctx.printer.item(await getOrder(await ctx.client(), id));
    });
}
