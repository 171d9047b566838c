import type { Command } from 'commander';
import type { Context } from '../../cmdutil/context.js';
import { listCommand } from './list.js';
import { listenCommand } from './listen.js';
import { replayCommand } from './replay.js';

/** `svc events …`: the event log, and sending its events to a receiver of yours. */
export function registerEvents(program: Command, ctx: Context): void {
  const events = program
    .command('events')
    .description('read the event log (last 30 days) and forward it to a receiver');
  listCommand(events, ctx);
  replayCommand(events, ctx);
  listenCommand(events, ctx);
}
