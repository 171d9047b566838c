import { updateListing } from '../../client/resources/listings.js';
import { defineCommand } from '../../cmdutil/define.js';
import { listingIdArg } from '../../cmdutil/fields/listings.js';
import { type WaitFlags, waitFlags } from '../../cmdutil/follow.js';
import { showWrite } from '../../cmdutil/listings/show-write.js';

/** `svc listings resync ID`: send the listing to its channel again as it is (PATCH {}). */
export const command = defineCommand<{ id: string } & WaitFlags>({
  path: ['listings', 'resync'],
  rank: 5,
  description: 'send a listing to its channel again as it is, e.g. after fixing the product',
  args: [listingIdArg],
  flags: waitFlags(),
  notes: ['To resync every listing refused for one reason, use `svc listings retry --error-code CODE`.'],
  examples: ['svc listings resync list_123', 'svc listings resync list_123 --wait --timeout 60'],
  /** Sends the listing to its channel again as it is (PATCH {}), and shows it (after --wait). */
  async run({ id, ...flags }, deps) {
    const client = await deps.client();
    const listing = await updateListing(client, id, {}, deps.signal);
    await showWrite(deps, client, listing, `Resync of ${id} started`, flags);
  },
});
