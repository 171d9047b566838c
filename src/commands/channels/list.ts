import { listChannelAccounts } from '../../client/resources/channels.js';
import { accountSummaryFields } from '../../cmdutil/fields/channels.js';
import { listCommand } from '../../cmdutil/resource-commands.js';
import { channelAccountsView } from '../../output/views/channels.js';

/** `svc channels list`: every connected account. */
export const command = listCommand({
  path: ['channels', 'list'],
  rank: 1,
  description: 'list connected channel accounts (ids to use with --channel-account)',
  fields: accountSummaryFields,
  fetch: async (client) => listChannelAccounts(client),
  view: channelAccountsView,
  noun: 'channel accounts',
  examples: ['svc channels list'],
});
