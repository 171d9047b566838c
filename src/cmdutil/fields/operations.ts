import { schemaFields } from '../fields.js';

/** The field paths of an operation, for --fields. */
export const operationFields = schemaFields(
  async () => (await import('../../contract/schemas/operation.js')).Operation,
);
