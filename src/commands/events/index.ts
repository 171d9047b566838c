import type { Command } from 'commander';
import type { Context } from '../../cli/context.js';
import { listCommand } from './list.js';

/** `svc events …`: the event log. */
export function registerEvents(program: Command, ctx: Context): void {
  const events = program.command('events').description('read the event log (last 30 days)');
  listCommand(events, ctx);
}
