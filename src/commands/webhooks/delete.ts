import { deleteWebhookEndpoint } from '../../client/resources/webhooks.js';
import { confirmDestructive } from '../../cmdutil/confirm.js';
import { defineCommand } from '../../cmdutil/define.js';
import { deletedFields } from '../../cmdutil/fields/webhooks.js';
import { idArg } from '../../cmdutil/resource-commands.js';
import { deletedWebhookText } from '../../output/views/webhooks.js';

/** `svc webhooks delete ID`: asks on a terminal; elsewhere needs --yes. */
export const command = defineCommand<{ id: string }>({
  path: ['webhooks', 'delete'],
  rank: 4,
  description: 'delete a webhook endpoint (events stop going to it)',
  args: [idArg('webhook endpoint', 'svc webhooks list')],
  takes: { confirms: true },
  fields: deletedFields,
  examples: ['svc webhooks delete we_123', 'svc webhooks delete we_123 --yes   # in scripts'],
  async run({ id }, deps) {
    // Yes with --yes; a question on a terminal; without one, a refusal (exit 2).
    const confirmed = await confirmDestructive(
      deps,
      { verb: 'delete', target: `webhook endpoint ${id}` },
      () => `Delete webhook endpoint ${id}? Events will stop going to it.`,
    );
    if (!confirmed) {
      deps.io.messages.info('Nothing deleted.');
      return;
    }
    const deleted = await deleteWebhookEndpoint(await deps.client(), id);
    await deps.io.printer.item(deleted, { summary: deletedWebhookText });
  },
});
