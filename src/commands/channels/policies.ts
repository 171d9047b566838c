import type { Command } from 'commander';
import type { Context } from '../../cmdutil/context.js';
import { fromArray, printList } from '../../cmdutil/list-command.js';
import { policiesView } from '../../output/views/channels.js';

/** `svc channels policies ID`. */
export function policiesCommand(parent: Command, ctx: Context, run = runPolicies): Command {
  return parent
    .command('policies')
    .description("list a channel account's shipping, return and payment policies")
    .argument('<id>', 'channel account id (chac_…)')
    .addHelpText('after', '\nExample:\n  svc channels policies chac_123\n')
    .action(async (id: string) => run(ctx, id));
}

/** Runs `svc channels policies` once its flags are parsed. */
export async function runPolicies(ctx: Context, id: string): Promise<void> {
  const { listPolicies } = await import('../../client/resources/channels.js');
  const policies = await listPolicies(await ctx.client(), id);
  await printList(ctx, fromArray(policies), policiesView, 'policies');
}
