import { getChannelAccount } from '../../client/resources/channels.js';
import { accountFields } from '../../cmdutil/fields/channels.js';
import { getCommand } from '../../cmdutil/resource-commands.js';

/** `svc channels get ID`. */
export const command = getCommand({
  path: ['channels', 'get'],
  rank: 2,
  description: 'show one channel account with its sync, pricing and inventory settings',
  kind: 'channel account',
  list: 'svc channels list',
  fields: accountFields,
  fetch: async (client, id) => getChannelAccount(client, id),
  examples: ['svc channels get chac_123'],
});
