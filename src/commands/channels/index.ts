import type { Command } from 'commander';
import type { Context } from '../../cmdutil/context.js';
import { categoriesCommand } from './categories.js';
import { getCommand } from './get.js';
import { listCommand } from './list.js';
import { policiesCommand } from './policies.js';
import { schemaCommand } from './schema.js';

/** `svc channels …`: channel accounts and their discovery data. */
export function registerChannels(program: Command, ctx: Context): void {
  const channels = program
    .command('channels')
    .description('channel accounts, their policies, categories and attribute schemas');
  listCommand(channels, ctx);
  getCommand(channels, ctx);
  policiesCommand(channels, ctx);
  categoriesCommand(channels, ctx);
  schemaCommand(channels, ctx);
}
