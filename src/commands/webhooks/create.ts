import { createWebhookEndpoint } from '../../client/resources/webhooks.js';
import { defineCommand } from '../../cmdutil/define.js';
import { webhookFields } from '../../cmdutil/fields/webhooks.js';
import { checkEventTypes } from '../../cmdutil/filter-check.js';
import { checkEndpointUrl, parseEventList } from '../../core/webhooks/input.js';
import { UsageError } from '../../errors.js';
import { createdWebhookText } from '../../output/views/webhooks.js';

/** Options of `svc webhooks create`. */
export interface CreateOptions {
  url: string;
  events?: string;
  description?: string;
}

/** `svc webhooks create --url U [--events a,b]`: prints the signing secret, once. */
export const command = defineCommand<CreateOptions>({
  path: ['webhooks', 'create'],
  rank: 2,
  description: 'register a webhook endpoint; its signing secret is shown once',
  flags: [
    { flags: '--url <url>', description: 'https:// receiver (plain http only to localhost)', required: true },
    { flags: '--events <types>', description: 'comma-separated event types, or * for all (default: all)' },
    { flags: '--description <text>', description: 'a note for people' },
  ],
  fields: webhookFields,
  examples: [
    'svc webhooks create --url https://example.com/hooks',
    'svc webhooks create --url http://localhost:3000/hooks --events order.created,order.status_changed',
  ],
  /** Checks the flags, creates the endpoint, shows it with its secret and a warning on stderr. */
  async run(options, deps) {
    const fields = deps.globals.fields;
    if (fields && !fields.includes('secret')) {
      // The secret is shown once, at creation: output that leaves it out would lose it for good.
      throw new UsageError(
        `--fields ${fields.join(',')} leaves out secret, which the service shows only now; add secret to --fields`,
      );
    }
    const input = {
      url: checkEndpointUrl(options.url),
      enabled_events: checkEventTypes(parseEventList(options.events)),
      description: options.description,
    };
    const endpoint = await createWebhookEndpoint(await deps.client(), input);
    await deps.io.printer.item(endpoint, { summary: createdWebhookText });
    deps.io.messages.warn(
      'this is the only time the signing secret is shown: store it now (e.g. in SVC_WEBHOOK_SECRET); it will not be shown again',
    );
  },
});
