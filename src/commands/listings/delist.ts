import type { Command } from 'commander';
import type { ApiClient } from '../../client/client.js';
import { confirmDestructive } from '../../cmdutil/confirm.js';
import type { Context } from '../../cmdutil/context.js';
import { type WaitFlags, withWait } from '../../cmdutil/follow.js';
import type { Listing } from '../../contract/schemas/listing.js';
import { AmbiguousWriteError } from '../../errors.js';
import { requireListingId } from './helpers.js';

/** `svc listings delist ID`: asks on a terminal; elsewhere needs --yes (exit 2 without). */
export function delistCommand(parent: Command, ctx: Context, run = runDelist): Command {
  const command = parent
    .command('delist')
    .description('take a listing off its channel (asks first; --yes in scripts)')
    .argument('<id>', 'listing id (list_…)');
  return withWait(command)
    .addHelpText(
      'after',
      [
        '',
        'The listing is `ongoing` until its channel confirms, then `delisted`.',
        '',
        'Examples:',
        '  svc listings delist list_123',
        '  svc listings delist list_123 --yes --wait   # in scripts',
      ].join('\n'),
    )
    .action(async (id: string, options: WaitFlags) => run(ctx, requireListingId(id), options));
}

/** Confirms, delists, and after an ambiguous failure reads the listing back before giving up. */
export async function runDelist(ctx: Context, id: string, options: WaitFlags): Promise<void> {
  const { deleteListing, getListing } = await import('../../client/resources/listings.js');
  const yes = await confirmDestructive(ctx, { verb: 'delist', target: id }, async () => {
    const listing = await getListing(await ctx.client(), id);
    return `Delist ${id} (${listing.product_id} on ${listing.channel ?? listing.channel_account_id}, now ${listing.status})?`;
  });
  if (!yes) {
    ctx.io.messages.info('Nothing delisted.');
    return;
  }
  const client = await ctx.client();
  let listing: Listing;
  try {
    listing = await deleteListing(client, id);
  } catch (error) {
    if (!(error instanceof AmbiguousWriteError)) throw error;
    const landed = await delistLanded(client, id);
    if (!landed) throw error;
    listing = landed;
  }
  const { showWrite } = await import('./helpers.js');
  await showWrite(
    ctx,
    client,
    listing,
    `Delisting ${id}; it stays ongoing until its channel confirms`,
    options,
  );
}

/** The listing, when it shows the delist was applied: delisted, or ongoing under a delist operation. */
async function delistLanded(client: ApiClient, id: string): Promise<Listing | undefined> {
  const { getListing } = await import('../../client/resources/listings.js');
  const { getOperation } = await import('../../client/resources/operations.js');
  const listing = await getListing(client, id);
  if (listing.status === 'delisted') return listing;
  if (listing.status !== 'ongoing' || !listing.operation_id) return undefined;
  const operation = await getOperation(client, listing.operation_id);
  return operation.type === 'listing.delist' ? listing : undefined;
}
