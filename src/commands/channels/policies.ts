import { listPolicies } from '../../client/resources/channels.js';
import { policyFields } from '../../cmdutil/fields/channels.js';
import { listCommand } from '../../cmdutil/resource-commands.js';
import { policiesView } from '../../output/views/channels.js';

/** `svc channels policies ID`. */
export const command = listCommand({
  path: ['channels', 'policies'],
  rank: 3,
  description: "list a channel account's shipping, return and payment policies",
  of: { kind: 'channel account', list: 'svc channels list' },
  fields: policyFields,
  fetch: async (client, id) => listPolicies(client, id as string),
  view: policiesView,
  noun: 'policies',
  examples: ['svc channels policies chac_123'],
});
