import { getOperation } from '../../client/resources/operations.js';
import { operationFields } from '../../cmdutil/fields/operations.js';
import { getCommand } from '../../cmdutil/resource-commands.js';

/** `svc operations get ID`. */
export const command = getCommand({
  path: ['operations', 'get'],
  rank: 2,
  description: 'show one operation and its per-channel results',
  kind: 'operation',
  list: 'svc operations list',
  fields: operationFields,
  fetch: async (client, id) => getOperation(client, id),
  examples: ['svc operations get op_123'],
});
