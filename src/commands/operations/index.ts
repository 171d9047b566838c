import type { Command } from 'commander';
import type { Context } from '../../cmdutil/context.js';
import { getCommand } from './get.js';
import { listCommand } from './list.js';
import { waitCommand } from './wait.js';

/** `svc operations …`: asynchronous work and its per-channel results. */
export function registerOperations(program: Command, ctx: Context): void {
  const operations = program.command('operations').description('follow asynchronous operations');
  listCommand(operations, ctx);
  getCommand(operations, ctx);
  waitCommand(operations, ctx);
}
