import type { Command } from 'commander';
import type { Context } from '../../cli/context.js';
import { getCommand } from './get.js';
import { listCommand } from './list.js';

/** `svc listings …`: products published on channel accounts. */
export function registerListings(program: Command, ctx: Context): void {
  const listings = program.command('listings').description('list and inspect listings on channel accounts');
  listCommand(listings, ctx);
  getCommand(listings, ctx);
}
