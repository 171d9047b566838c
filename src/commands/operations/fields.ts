import { schemaFields } from '../../cmdutil/fields.js';

/** The field paths of an operation, for --fields. */
export const operationFields = schemaFields(
  async () => (await import('../../api/schemas/operation.js')).Operation,
);
