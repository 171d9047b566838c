import type { Command } from 'commander';
import type { Context } from '../../cmdutil/context.js';

/** `svc channels get ID`. */
export function getCommand(parent: Command, ctx: Context, run = runGet): Command {
  return parent
    .command('get')
    .description('show one channel account with its sync, pricing and inventory settings')
    .argument('<id>', 'channel account id (chac_…)')
    .addHelpText('after', '\nExample:\n  svc channels get chac_123\n')
    .action(async (id: string) => run(ctx, id));
}

/** Runs `svc channels get` once its flags are parsed. */
export async function runGet(ctx: Context, id: string): Promise<void> {
  const { getChannelAccount } = await import('../../client/resources/channels.js');
  await ctx.io.printer.item(await getChannelAccount(await ctx.client(), id));
}
