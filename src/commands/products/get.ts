import type { Command } from 'commander';
import type { Context } from '../../cmdutil/context.js';

/** `svc products get ID`. */
export function getCommand(parent: Command, ctx: Context, run = runGet): Command {
  return parent
    .command('get')
    .description('show one product with its variants, images and listings')
    .argument('<id>', 'product id (prod_…)')
    .addHelpText('after', '\nExample:\n  svc products get prod_123\n')
    .action(async (id: string) => run(ctx, id));
}

/** Runs `svc products get` once its flags are parsed. */
export async function runGet(ctx: Context, id: string): Promise<void> {
  const { getProduct } = await import('../../client/resources/products.js');
  await ctx.io.printer.item(await getProduct(await ctx.client(), id));
}
