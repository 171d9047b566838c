import type { Command } from 'commander';
import type { Context } from '../../cmdutil/context.js';
import { fromArray, printList } from '../../cmdutil/list-command.js';
import { channelAccountsView } from '../../output/views/channels.js';

/** `svc channels list`: every connected account. */
export function listCommand(parent: Command, ctx: Context, run = runList): Command {
  return parent
    .command('list')
    .description('list connected channel accounts (ids to use with --channel-account)')
    .addHelpText('after', '\nExample:\n  svc channels list\n')
    .action(async () => run(ctx));
}

/** Runs `svc channels list` once its flags are parsed. */
export async function runList(ctx: Context): Promise<void> {
  const { listChannelAccounts } = await import('../../client/resources/channels.js');
  const accounts = await listChannelAccounts(await ctx.client());
  await printList(ctx, fromArray(accounts), channelAccountsView, 'channel accounts');
}
