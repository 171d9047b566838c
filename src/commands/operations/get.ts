import { defineCommand } from '../../cmdutil/define.js';
import { OPERATION_ID, operationFields } from './fields.js';

/** `svc operations get ID`. */
export const command = defineCommand<{ id: string }>({
  path: ['operations', 'get'],
  rank: 2,
  description: 'show one operation and its per-channel results',
  args: [{ name: 'id', description: 'operation id (op_…)', id: OPERATION_ID }],
  fields: operationFields,
  examples: ['svc operations get op_123'],
  async run({ id }, { io, client }) {
    const { getOperation } = await import('../../api/resources/operations.js');
    await io.printer.item(await getOperation(await client(), id));
  },
});
