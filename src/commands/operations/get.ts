import type { Command } from 'commander';
import type { Context } from '../../cmdutil/context.js';

/** `svc operations get ID`. */
export function getCommand(parent: Command, ctx: Context, run = runGet): Command {
  return parent
    .command('get')
    .description('show one operation and its per-channel results')
    .argument('<id>', 'operation id (op_…)')
    .addHelpText('after', '\nExample:\n  svc operations get op_123\n')
    .action(async (id: string) => run(ctx, id));
}

/** Runs `svc operations get` once its flags are parsed. */
export async function runGet(ctx: Context, id: string): Promise<void> {
  const { getOperation } = await import('../../api/resources/operations.js');
  await ctx.printer.item(await getOperation(await ctx.client(), id));
}
