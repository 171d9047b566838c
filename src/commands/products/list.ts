import type { Command } from 'commander';
import type { Context } from '../../cmdutil/context.js';
import { printList } from '../../cmdutil/list-command.js';
import { timeFlag } from '../../cmdutil/parse.js';
import { productsView } from '../../output/views/products.js';

/** `svc products list`: most recently updated first. */
export function listCommand(parent: Command, ctx: Context, run = runList): Command {
  return parent
    .command('list')
    .description('list products, most recently updated first')
    .option(
      '--updated-after <time>',
      'ISO 8601 or a duration back from now',
      timeFlag('--updated-after', ctx.now),
    )
    .addHelpText(
      'after',
      '\nExamples:\n  svc products list\n  svc products list --updated-after 7d --all --json\n',
    )
    .action(async (options: { updatedAfter?: string }) => run(ctx, options));
}

/** Runs `svc products list` once its flags are parsed. */
export async function runList(ctx: Context, options: { updatedAfter?: string }): Promise<void> {
  const { listProducts } = await import('../../client/resources/products.js');
  const products = listProducts(
    await ctx.client(),
    { updated_after: options.updatedAfter },
    ctx.io.listLimit,
  );
  await printList(ctx, products, productsView, 'products');
}
