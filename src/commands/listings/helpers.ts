/** What the listing write commands share: id checks, summaries, and showing the write (after --wait). */
import type { ApiClient } from '../../client/client.js';
import type { Context } from '../../cmdutil/context.js';
import type { WaitFlags } from '../../cmdutil/follow.js';
import type { Listing } from '../../contract/schemas/listing.js';
import { UsageError } from '../../errors.js';

/** Listing ids carry the `list_` prefix; anything else is refused before sending (exit 2). */
export function requireListingId(id: string): string {
  if (!/^list_\S+$/.test(id)) {
    throw new UsageError(
      `"${id}" is not a listing id (they look like list_…); find one with \`svc listings list\``,
    );
  }
  return id;
}

/** "list_1 (prod_2 on chac_3, etsy): ongoing, operation op_4". */
function listingText(listing: Listing): string {
  const where = `${listing.product_id} on ${listing.channel_account_id}${listing.channel ? `, ${listing.channel}` : ''}`;
  const operation = listing.operation_id ? `, operation ${listing.operation_id}` : '';
  const issues = (listing.issues ?? []).map((issue) =>
    `\n  ${issue.severity ?? 'issue'} ${issue.code}: ${issue.message ?? ''}`.trimEnd(),
  );
  return `${listing.id} (${where}): ${listing.status}${operation}${issues.join('')}`;
}

/**
 * Prints the listing a write answered. With --wait, follows its operation first and prints
 * the listing as it then is, with the operation's results (exit 3 on failure, 8 at the timeout).
 */
export async function showWrite(
  ctx: Context,
  client: ApiClient,
  listing: Listing,
  headline: string,
  flags: WaitFlags,
): Promise<void> {
  const { simulatedNote } = await import('../../output/summary.js');
  const note = simulatedNote(client.live);
  if (!flags.wait || !listing.operation_id) {
    ctx.io.messages.info(`${headline}${note}`);
    await ctx.io.printer.item(listing, { summary: () => listingText(listing) });
    if (listing.operation_id && ctx.io.stderrIsTTY)
      ctx.io.messages.info(`Follow it with: svc operations wait ${listing.operation_id}`);
    return;
  }
  const { followOne } = await import('../../cmdutil/follow.js');
  const { endOfFollow, operationFailure } = await import('../../core/operations/follow.js');
  const { operationText } = await import('../../output/views/operations.js');
  ctx.io.messages.info(`${headline}${note}; waiting for ${listing.operation_id}`);
  const followed = await followOne(ctx, client, listing.operation_id, flags.timeout);
  const { getListing } = await import('../../client/resources/listings.js');
  // A test key's listing was never stored: its answer is all there is.
  const now = client.live ? await getListing(client, listing.id) : listing;
  const [operation] = followed.operations;
  await ctx.io.printer.item(now, { summary: () => `${listingText(now)}\n${operationText(operation)}` });
  endOfFollow(followed, operationFailure(followed));
}
