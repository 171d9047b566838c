import type { Command } from 'commander';
import { confirmDestructive } from '../../cmdutil/confirm.js';
import type { Context } from '../../cmdutil/context.js';

/** `svc webhooks delete ID`: asks on a terminal; elsewhere needs --yes. */
export function deleteCommand(parent: Command, ctx: Context, run = runDelete): Command {
  return parent
    .command('delete')
    .description('delete a webhook endpoint (events stop going to it)')
    .argument('<id>', 'webhook endpoint id (we_…)')
    .addHelpText(
      'after',
      '\nExamples:\n  svc webhooks delete we_123\n  svc webhooks delete we_123 --yes   # in scripts\n',
    )
    .action(async (id: string) => run(ctx, id));
}

/** Runs `svc webhooks delete` once its flags are parsed. */
export async function runDelete(ctx: Context, id: string): Promise<void> {
  if (!(await confirmDelete(ctx, id))) {
    ctx.io.messages.info('Nothing deleted.');
    return;
  }
  const { deleteWebhookEndpoint } = await import('../../client/resources/webhooks.js');
  const deleted = await deleteWebhookEndpoint(await ctx.client(), id);
  await ctx.io.printer.item(deleted, { summary: (answer) => `Deleted webhook endpoint ${answer.id}` });
}

/** Yes with --yes; a question on a terminal; without one, a refusal (exit 2). */
function confirmDelete(ctx: Context, id: string): Promise<boolean> {
  return confirmDestructive(
    ctx,
    { verb: 'delete', target: `webhook endpoint ${id}` },
    () => `Delete webhook endpoint ${id}? Events will stop going to it.`,
  );
}
