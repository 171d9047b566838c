/**
 * `listings update --error-code C …`: the same change sent to every listing in error with C,
 * in the bulk frame (dry run, cost, confirmation, report, summary), then with --wait what the
 * channels said. Listings that already carry the change are not sent again.
 */

import type { Listing, ListingUpdate } from '../../contract/schemas/listing.js';
import type { Verdict } from '../../core/outcomes.js';
import { requestsAndQuota } from '../../output/summary.js';
import { counted, plural } from '../../words.js';
import type { Deps } from '../deps.js';
import type { WaitFlags } from '../follow.js';
import type { ResyncDeps } from './resync-plan.js';
import type { Selection, SelectionFlags } from './selection.js';

/** What the bulk update takes of the command's flags. */
export type BulkUpdateFlags = SelectionFlags &
  WaitFlags & { errorCode: string; dryRun?: boolean; report?: string };

/** Collects the listings, checks the change against their categories, and runs the updates. */
export async function updateFailing(
  deps: ResyncDeps,
  flags: BulkUpdateFlags,
  body: ListingUpdate,
): Promise<void> {
  const { selectFailing } = await import('./selection.js');
  const selection = await selectFailing(deps, flags);
  const { matches, what } = selection;
  if (matches.length === 0) {
    deps.io.messages.info(`No ${what}; nothing to update.`);
    const { BulkLedger } = await import('../../core/outcomes.js');
    if (deps.io.wantsJson) await deps.io.printer.item(new BulkLedger(0).summary(0));
    return;
  }
  const { ListingReads } = await import('../../core/listings/reads.js');
  const reads = new ListingReads(await deps.client(), deps.signal);
  const { carriesUpdate, checkBulkAttributes } = await import('../../core/listings/bulk-update.js');
  const { notes } = await checkBulkAttributes(reads, matches, body, deps.signal);
  for (const note of notes) deps.io.messages.warn(note);
  const held = new Map<string, Verdict>();
  for (const listing of matches) {
    if (!carriesUpdate(listing, body)) continue;
    held.set(listing.id, { status: 'unchanged', message: 'carries these values already; not sent again' });
  }
  const count = `${matches.length.toLocaleString('en-US')} ${what}`;
  const { runResync } = await import('./resync-plan.js');
  await runResync(deps, {
    selection,
    held,
    body,
    dryRun: () => showUpdateDryRun(deps, selection, body, held, count),
    ask: 'Update',
    verb: 'Updated',
    action: 'update',
    flags,
    rerunNote: '; listings that carry the change already are not sent again',
    heldNote:
      held.size > 0
        ? `${held.size.toLocaleString('en-US')} of them carry these values already and ${plural(held.size, 'is', 'are')} not sent again.`
        : undefined,
    reads,
  });
}

/** The listings that would be updated, then what would be sent and what it would spend. */
async function showUpdateDryRun(
  deps: Pick<Deps, 'io' | 'client'>,
  selection: Selection,
  body: ListingUpdate,
  held: ReadonlyMap<string, Verdict>,
  count: string,
): Promise<void> {
  const sent: Listing[] = selection.matches.filter((listing) => !held.has(listing.id));
  const { fromArray } = await import('../list-command.js');
  const { listingsView } = await import('../../output/views/listings.js');
  // On a table, accounts by their labels (one read), as listings list shows them.
  const labels =
    deps.io.format === 'table'
      ? await (await import('../../client/resources/channels.js')).accountLabels(await deps.client())
      : undefined;
  await deps.io.printer.list(fromArray(sent), listingsView({ labels, fixed: { status: true } }));
  const which =
    sent.length === selection.matches.length ? count : `${sent.length.toLocaleString('en-US')} of ${count}`;
  const carrying = held.size > 0 ? `; ${counted(held.size, 'listing')} carry the change already` : '';
  const { quotaSpentNote } = await import('../bulk-command.js');
  const { sentence } = await quotaSpentNote(
    deps,
    `${which} would be updated in ${requestsAndQuota(sent.length)}`,
  );
  deps.io.messages.info(
    `Dry run: ${sentence}, each with PATCH ${JSON.stringify(body)}${carrying}. Nothing was sent.`,
  );
}
