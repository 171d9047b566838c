import type { Command } from 'commander';
import type { Context } from '../../cmdutil/context.js';
import { type WaitFlags, withWait } from '../../cmdutil/follow.js';
import { requireListingId } from './helpers.js';

/** `svc listings resync ID`: send the listing to its channel again as it is (PATCH {}). */
export function resyncCommand(parent: Command, ctx: Context, run = runResync): Command {
  const command = parent
    .command('resync')
    .description('send a listing to its channel again as it is, e.g. after fixing the product')
    .argument('<id>', 'listing id (list_…)');
  return withWait(command)
    .addHelpText(
      'after',
      [
        '',
        'To resync every listing refused for one reason, use `svc listings retry --error-code CODE`.',
        '',
        'Examples:',
        '  svc listings resync list_123',
        '  svc listings resync list_123 --wait --timeout 60',
      ].join('\n'),
    )
    .action(async (id: string, options: WaitFlags) => run(ctx, id, options));
}

/** Sends the listing to its channel again as it is (PATCH {}), and shows it (after --wait). */
export async function runResync(ctx: Context, id: string, options: WaitFlags): Promise<void> {
  const listingId = requireListingId(id);
  const client = await ctx.client();
  const { updateListing } = await import('../../client/resources/listings.js');
  const { showWrite } = await import('./helpers.js');
  const listing = await updateListing(client, listingId, {}, ctx.signal);
  await showWrite(ctx, client, listing, `Resync of ${listingId} started`, options);
}
