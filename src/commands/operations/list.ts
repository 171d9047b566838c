import type { Command } from 'commander';
import type { Context } from '../../cmdutil/context.js';
import { printList } from '../../cmdutil/list-command.js';
import { timeFlag } from '../../cmdutil/parse.js';
import { operationsView } from '../../output/views/operations.js';

/** `svc operations list`: newest first. */
export function listCommand(parent: Command, ctx: Context, run = runList): Command {
  return parent
    .command('list')
    .description('list operations, newest first')
    .option('--status <status>', 'pending, processing, succeeded, partial, failed')
    .option(
      '--created-after <time>',
      'ISO 8601 or a duration back from now',
      timeFlag('--created-after', ctx.now),
    )
    .addHelpText(
      'after',
      '\nExamples:\n  svc operations list --status failed\n  svc operations list --created-after 1h --all\n',
    )
    .action(async (options: { status?: string; createdAfter?: string }) => run(ctx, options));
}

/** Runs `svc operations list` once its flags are parsed. */
export async function runList(
  ctx: Context,
  options: { status?: string; createdAfter?: string },
): Promise<void> {
  const { listOperations } = await import('../../api/resources/operations.js');
  const { checkStatus } = await import('../../cmdutil/filter-check.js');
  const status = checkStatus('operations', options.status, { path: '/operations', param: 'status' });
  const filters = { status, created_after: options.createdAfter };
  await printList(
    ctx,
    listOperations(await ctx.client(), filters, ctx.listLimit),
    operationsView,
    'operations',
  );
}
