import type { Command } from 'commander';
import type { Context } from '../../cmdutil/context.js';
import { printList } from '../../cmdutil/list-command.js';
import { timeFlag } from '../../cmdutil/parse.js';
import { eventsView } from '../../output/views/events.js';

/** `svc events list`: newest first. */
export function listCommand(parent: Command, ctx: Context, run = runList): Command {
  return parent
    .command('list')
    .description('list events, newest first')
    .option('--since <time>', 'ISO 8601 or a duration back from now (24h, 7d)', timeFlag('--since', ctx.now))
    .option('--type <type>', 'only this event type, e.g. order.created')
    .addHelpText(
      'after',
      '\nExamples:\n  svc events list --since 24h\n  svc events list --type order.created --all -o ndjson\n',
    )
    .action(async (options: { since?: string; type?: string }) => run(ctx, options));
}

/** Runs `svc events list` once its flags are parsed. */
export async function runList(ctx: Context, options: { since?: string; type?: string }): Promise<void> {
  const { listEvents } = await import('../../client/resources/events.js');
  const { checkEventType } = await import('../../cmdutil/filter-check.js');
  const type = checkEventType(options.type, { path: '/events', param: 'type' });
  const filters = { created_after: options.since, type };
  await printList(ctx, listEvents(await ctx.client(), filters, ctx.io.listLimit), eventsView, 'events');
}
