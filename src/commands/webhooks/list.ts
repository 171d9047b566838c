import type { Command } from 'commander';
import type { Context } from '../../cmdutil/context.js';
import { printList } from '../../cmdutil/list-command.js';
import { webhooksView } from '../../output/views/webhooks.js';

/** `svc webhooks list`. */
export function listCommand(parent: Command, ctx: Context, run = runList): Command {
  return parent
    .command('list')
    .description('list webhook endpoints (their secrets are never shown again)')
    .addHelpText('after', '\nExamples:\n  svc webhooks list\n  svc webhooks list --json\n')
    .action(async () => run(ctx));
}

/** Runs `svc webhooks list` once its flags are parsed. */
export async function runList(ctx: Context): Promise<void> {
  const { listWebhookEndpoints } = await import('../../client/resources/webhooks.js');
  await printList(
    ctx,
    listWebhookEndpoints(await ctx.client(), ctx.io.listLimit),
    webhooksView,
    'webhook endpoints',
  );
}
