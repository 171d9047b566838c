import { updateWebhookEndpoint } from '../../client/resources/webhooks.js';
import { defineCommand } from '../../cmdutil/define.js';
import { webhookFields } from '../../cmdutil/fields/webhooks.js';
import { checkEventTypes } from '../../cmdutil/filter-check.js';
import { idArg } from '../../cmdutil/resource-commands.js';
import type { WebhookEndpointUpdate } from '../../contract/schemas/webhook-endpoint.js';
import { checkEndpointUrl, parseEventList } from '../../core/webhooks/input.js';
import { UsageError } from '../../errors.js';
import { updatedWebhookText } from '../../output/views/webhooks.js';

/** Options of `svc webhooks update`. */
export interface UpdateOptions {
  url?: string;
  events?: string;
  enable?: boolean;
  disable?: boolean;
  description?: string;
}

/** `svc webhooks update ID [--url U] [--events a,b] [--enable|--disable]`. */
export const command = defineCommand<UpdateOptions & { id: string }>({
  path: ['webhooks', 'update'],
  rank: 3,
  description: 'change where an endpoint receives events, which ones, or turn it on or off',
  args: [idArg('webhook endpoint', 'svc webhooks list')],
  flags: [
    { flags: '--url <url>', description: 'new https:// receiver (plain http only to localhost)' },
    { flags: '--events <types>', description: 'comma-separated event types, or * for all' },
    { flags: '--enable', description: 'turn delivery on (e.g. after it was disabled by failures)' },
    { flags: '--disable', description: 'turn delivery off' },
    { flags: '--description <text>', description: 'a note for people' },
  ],
  fields: webhookFields,
  examples: [
    'svc webhooks update we_123 --enable',
    'svc webhooks update we_123 --events order.created --url https://example.com/v2/hooks',
  ],
  async run({ id, ...options }, deps) {
    const change = await updateFromFlags(options);
    const endpoint = await updateWebhookEndpoint(await deps.client(), id, change);
    await deps.io.printer.item(endpoint, { summary: updatedWebhookText });
  },
});

/** The PATCH body the flags ask for; exit 2 when they ask for nothing or for both --enable and --disable. */
async function updateFromFlags(options: UpdateOptions): Promise<WebhookEndpointUpdate> {
  if (options.enable && options.disable) throw new UsageError('give --enable or --disable, not both');
  const change: WebhookEndpointUpdate = {};
  if (options.url !== undefined) change.url = checkEndpointUrl(options.url);
  if (options.events !== undefined) change.enabled_events = checkEventTypes(parseEventList(options.events));
  if (options.enable) change.status = 'enabled';
  if (options.disable) change.status = 'disabled';
  if (options.description !== undefined) change.description = options.description;
  if (Object.keys(change).length === 0) {
    throw new UsageError('nothing to change: give --url, --events, --enable, --disable or --description');
  }
  return change;
}
