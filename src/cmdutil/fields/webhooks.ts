import { schemaFields } from '../fields.js';

/** The field paths of a webhook endpoint, for --fields. */
export const webhookFields = schemaFields(
  async () => (await import('../../contract/schemas/webhook-endpoint.js')).WebhookEndpoint,
);

/** The field paths of the answer to a delete, for --fields. */
export const deletedFields = schemaFields(
  async () => (await import('../../contract/schemas/common.js')).Deleted,
);
