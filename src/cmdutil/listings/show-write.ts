/** What the listing write commands share: showing the listing a write answered (after --wait). */
import type { ApiClient } from '../../client/client.js';
import type { Listing } from '../../contract/schemas/listing.js';
import type { Deps } from '../deps.js';
import type { WaitFlags } from '../follow.js';

/**
 * Prints the listing a write answered. With --wait, follows its operation first and prints
 * the listing as it then is, with the operation's results (exit 3 on failure, 8 at the timeout).
 */
export async function showWrite(
  deps: Pick<Deps, 'io' | 'signal'>,
  client: ApiClient,
  listing: Listing,
  headline: string,
  flags: WaitFlags,
): Promise<void> {
  const { simulatedNote } = await import('../../output/summary.js');
  const { followedListingText, listingText } = await import('../../output/views/listings.js');
  const note = simulatedNote(client.live);
  if (!flags.wait || !listing.operation_id) {
    deps.io.messages.info(`${headline}${note}`);
    await deps.io.printer.item(listing, { summary: listingText });
    if (listing.operation_id && deps.io.stderrIsTTY)
      deps.io.messages.info(`Follow it with: svc operations wait ${listing.operation_id}`);
    return;
  }
  const { followOne } = await import('../follow.js');
  const { endOfFollow, operationFailure } = await import('../../core/operations/follow.js');
  deps.io.messages.info(`${headline}${note}; waiting for ${listing.operation_id}`);
  const followed = await followOne(deps, client, listing.operation_id, flags.timeout);
  const { getListing } = await import('../../client/resources/listings.js');
  // A test key's listing was never stored: its answer is all there is.
  const now = client.live ? await getListing(client, listing.id) : listing;
  const [operation] = followed.operations;
  await deps.io.printer.item(now, { summary: (item) => followedListingText(item, operation) });
  endOfFollow(followed, operationFailure(followed));
}
