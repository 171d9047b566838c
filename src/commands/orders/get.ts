import type { Command } from 'commander';
import type { Context } from '../../cmdutil/context.js';

/** `svc orders get ID`: one order in full, buyer included. */
export function getCommand(parent: Command, ctx: Context, run = runGet): Command {
  return parent
    .command('get')
    .description('show one order in full, buyer and lines included')
    .argument('<id>', 'order id (ord_…)')
    .addHelpText(
      'after',
      '\nExamples:\n  svc orders get ord_123\n  svc orders get ord_123 --json | jq .buyer.address\n',
    )
    .action(async (id: string) => run(ctx, id));
}

/** Runs `svc orders get` once its flags are parsed. */
export async function runGet(ctx: Context, id: string): Promise<void> {
  const { getOrder } = await import('../../api/resources/orders.js');
  await ctx.printer.item(await getOrder(await ctx.client(), id));
}
