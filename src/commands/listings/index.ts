import type { Command } from 'commander';
import type { Context } from '../../cmdutil/context.js';
import { delistCommand } from './delist.js';
import { errorsCommand } from './errors.js';
import { getCommand } from './get.js';
import { listCommand } from './list.js';
import { publishCommand } from './publish.js';
import { resyncCommand } from './resync.js';
import { retryCommand } from './retry.js';
import { updateCommand } from './update.js';

/** `svc listings …`: products published on channel accounts. */
export function registerListings(program: Command, ctx: Context): void {
  const listings = program
    .command('listings')
    .description('publish, update, resync, delist and retry listings on channel accounts');
  listCommand(listings, ctx);
  getCommand(listings, ctx);
  publishCommand(listings, ctx);
  updateCommand(listings, ctx);
  resyncCommand(listings, ctx);
  delistCommand(listings, ctx);
  retryCommand(listings, ctx);
  errorsCommand(listings, ctx);
}
