import type { ApiClient } from '../../client/client.js';
import { deleteListing, getListing } from '../../client/resources/listings.js';
import { getOperation } from '../../client/resources/operations.js';
import { confirmDestructive } from '../../cmdutil/confirm.js';
import { defineCommand } from '../../cmdutil/define.js';
import { listingIdArg } from '../../cmdutil/fields/listings.js';
import { type WaitFlags, waitFlags } from '../../cmdutil/follow.js';
import { showWrite } from '../../cmdutil/listings/show-write.js';
import type { Listing } from '../../contract/schemas/listing.js';
import { AmbiguousWriteError } from '../../errors.js';

/** `svc listings delist ID`: asks on a terminal; elsewhere needs --yes (exit 2 without). */
export const command = defineCommand<{ id: string } & WaitFlags>({
  path: ['listings', 'delist'],
  rank: 6,
  description: 'take a listing off its channel (asks first; --yes in scripts)',
  args: [listingIdArg],
  flags: waitFlags(),
  takes: { confirms: true },
  notes: ['The listing is `ongoing` until its channel confirms, then `delisted`.'],
  examples: ['svc listings delist list_123', 'svc listings delist list_123 --yes --wait   # in scripts'],
  /** Confirms, delists, and after an ambiguous failure reads the listing back before giving up. */
  async run({ id, ...flags }, deps) {
    const yes = await confirmDestructive(deps, { verb: 'delist', target: id }, async () => {
      const listing = await getListing(await deps.client(), id);
      return `Delist ${id} (${listing.product_id} on ${listing.channel ?? listing.channel_account_id}, now ${listing.status})?`;
    });
    if (!yes) {
      deps.io.messages.info('Nothing delisted.');
      return;
    }
    const client = await deps.client();
    let listing: Listing;
    try {
      listing = await deleteListing(client, id);
    } catch (error) {
      if (!(error instanceof AmbiguousWriteError)) throw error;
      const landed = await delistLanded(client, id);
      if (!landed) throw error;
      listing = landed;
    }
    await showWrite(
      deps,
      client,
      listing,
      `Delisting ${id}; it stays ongoing until its channel confirms`,
      flags,
    );
  },
});

/** The listing, when it shows the delist was applied: delisted, or ongoing under a delist operation. */
async function delistLanded(client: ApiClient, id: string): Promise<Listing | undefined> {
  const listing = await getListing(client, id);
  if (listing.status === 'delisted') return listing;
  if (listing.status !== 'ongoing' || !listing.operation_id) return undefined;
  const operation = await getOperation(client, listing.operation_id);
  return operation.type === 'listing.delist' ? listing : undefined;
}
