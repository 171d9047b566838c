import { listWebhookEndpoints } from '../../client/resources/webhooks.js';
import { defineCommand } from '../../cmdutil/define.js';
import { webhookFields } from '../../cmdutil/fields/webhooks.js';
import { printList } from '../../cmdutil/list-command.js';
import { webhooksView } from '../../output/views/webhooks.js';

/** `svc webhooks list`. */
export const command = defineCommand<Record<string, never>>({
  path: ['webhooks', 'list'],
  rank: 1,
  description: 'list webhook endpoints (their secrets are never shown again)',
  takes: { list: true },
  fields: webhookFields,
  examples: ['svc webhooks list', 'svc webhooks list --json'],
  async run(_args, deps) {
    await printList(
      deps,
      listWebhookEndpoints(await deps.client(), deps.io.listLimit),
      webhooksView,
      'webhook endpoints',
    );
  },
});
