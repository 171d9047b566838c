import type { Command } from 'commander';
import type { Context } from '../../cmdutil/context.js';
import { listCommand } from './list.js';
import { removeCommand } from './remove.js';
import { useCommand } from './use.js';

/** `svc profiles …`: saved profiles. */
export function registerProfiles(program: Command, ctx: Context): void {
  const profiles = program.command('profiles').description('list, switch and remove saved profiles');
  listCommand(profiles, ctx);
  useCommand(profiles, ctx);
  removeCommand(profiles, ctx);
}
