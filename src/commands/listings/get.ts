import { getCommand } from '../../cmdutil/resource-commands.js';
import { listingFields } from './fields.js';

/** `svc listings get ID`. */
export const command = getCommand({
  path: ['listings', 'get'],
  rank: 2,
  description: 'show one listing with its issues',
  kind: 'listing',
  list: 'svc listings list',
  fields: listingFields,
  fetch: async (client, id) => (await import('../../client/resources/listings.js')).getListing(client, id),
  examples: ['svc listings get list_123'],
});
