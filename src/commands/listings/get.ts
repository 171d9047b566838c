import type { Command } from 'commander';
import type { Context } from '../../cmdutil/context.js';

/** `svc listings get ID`. */
export function getCommand(parent: Command, ctx: Context, run = runGet): Command {
  return parent
    .command('get')
    .description('show one listing with its issues')
    .argument('<id>', 'listing id (list_…)')
    .addHelpText('after', '\nExample:\n  svc listings get list_123\n')
    .action(async (id: string) => run(ctx, id));
}

/** Runs `svc listings get` once its flags are parsed. */
export async function runGet(ctx: Context, id: string): Promise<void> {
  const { getListing } = await import('../../client/resources/listings.js');
  await ctx.io.printer.item(await getListing(await ctx.client(), id));
}
