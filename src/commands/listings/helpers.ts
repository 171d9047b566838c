/** What the listing write commands share: id checks, flags, summaries, --wait. */
import type { Command } from 'commander';
import type { ApiClient } from '../../api/client.js';
import type { Listing } from '../../api/schemas/listing.js';
import type { Context } from '../../cmdutil/context.js';
import { integerFlag } from '../../cmdutil/parse.js';
import { UsageError } from '../../errors.js';
import { DEFAULT_WAIT_SECONDS } from '../operations/wait.js';

/** Flags every single-listing write takes. */
export interface WaitFlags {
  wait?: boolean;
  timeout: number;
}

/** Collects a repeatable flag's values. */
export function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

/** Adds `--wait` and `--timeout S` to a command. */
export function withWait(command: Command): Command {
  return command
    .option('--wait', 'wait for the operation to end and show its per-channel results')
    .option(
      '--timeout <s>',
      `with --wait: give up after S seconds (default ${DEFAULT_WAIT_SECONDS}; exit 8)`,
      integerFlag('--timeout', 0),
      DEFAULT_WAIT_SECONDS,
    );
}

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
export function listingText(listing: Listing): string {
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
    ctx.messages.info(`${headline}${note}`);
    await ctx.printer.item(listing, { summary: () => listingText(listing) });
    if (listing.operation_id && ctx.io.stderrIsTTY)
      ctx.messages.info(`Follow it with: svc operations wait ${listing.operation_id}`);
    return;
  }
  const { awaitOperation, endOfWait, operationText } = await import('../operations/wait.js');
  ctx.messages.info(`${headline}${note}; waiting for ${listing.operation_id}`);
  const result = await awaitOperation(ctx, client, listing.operation_id, flags.timeout);
  const { getListing } = await import('../../api/resources/listings.js');
  // A test key's listing was never stored: its answer is all there is.
  const now = note ? listing : await getListing(client, listing.id);
  const operation = result.operations[0];
  await ctx.printer.item(now, { summary: () => `${listingText(now)}\n${operationText(operation)}` });
  endOfWait(result, flags.timeout);
}
