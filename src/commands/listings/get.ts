import { getListing } from '../../client/resources/listings.js';
import { listingFields } from '../../cmdutil/fields/listings.js';
import { getCommand } from '../../cmdutil/resource-commands.js';
import { withHints } from '../../core/listings/cause.js';
import { ListingReads } from '../../core/listings/reads.js';

/** `svc listings get ID`. */
export const command = getCommand({
  path: ['listings', 'get'],
  rank: 2,
  description: 'show one listing with its issues',
  kind: 'listing',
  list: 'svc listings list',
  fields: listingFields,
  fetch: async (client, id) => getListing(client, id),
  web: (listing) => ({
    url: listing.url_on_channel,
    what: `listing ${listing.id} on its channel`,
    field: 'url_on_channel',
  }),
  notes: [
    'On a terminal, an issue svc can say more about ends with the command that shows what it',
    'needs: an invalid attribute value, with `svc channels schema ACCOUNT CATEGORY` (the values the',
    "listing's category accepts). json, ndjson, csv and tsv carry the listing as the service sent it.",
  ],
  examples: ['svc listings get list_123', 'svc listings get list_123 --web   # the listing on its channel'],
  /** On a table, the issues' messages with their hints (a read of the category when the listing names none). */
  async show(listing, deps) {
    if (deps.io.format !== 'table') return deps.io.printer.item(listing);
    const reads = new ListingReads(await deps.client(), deps.signal);
    await deps.io.printer.item(await withHints(reads, listing));
  },
});
