import type { Command } from 'commander';
import type { Context } from '../../cmdutil/context.js';
import type { WebhookEndpointUpdate } from '../../contract/schemas/webhook-endpoint.js';
import { UsageError } from '../../errors.js';

/** Options of `svc webhooks update`. */
export interface UpdateOptions {
  url?: string;
  events?: string;
  enable?: boolean;
  disable?: boolean;
  description?: string;
}

/** `svc webhooks update ID [--url U] [--events a,b] [--enable|--disable]`. */
export function updateCommand(parent: Command, ctx: Context, run = runUpdate): Command {
  return parent
    .command('update')
    .description('change where an endpoint receives events, which ones, or turn it on or off')
    .argument('<id>', 'webhook endpoint id (we_…)')
    .option('--url <url>', 'new https:// receiver (plain http only to localhost)')
    .option('--events <types>', 'comma-separated event types, or * for all')
    .option('--enable', 'turn delivery on (e.g. after it was disabled by failures)')
    .option('--disable', 'turn delivery off')
    .option('--description <text>', 'a note for people')
    .addHelpText(
      'after',
      '\nExamples:\n  svc webhooks update we_123 --enable\n  svc webhooks update we_123 --events order.created --url https://example.com/v2/hooks\n',
    )
    .action(async (id: string, options: UpdateOptions) => run(ctx, id, options));
}

/** Runs `svc webhooks update` once its flags are parsed. */
export async function runUpdate(ctx: Context, id: string, options: UpdateOptions): Promise<void> {
  const change = await updateFromFlags(options);
  const { updateWebhookEndpoint } = await import('../../client/resources/webhooks.js');
  const { webhookSummary } = await import('../../output/views/webhooks.js');
  const endpoint = await updateWebhookEndpoint(await ctx.client(), id, change);
  await ctx.io.printer.item(endpoint, {
    summary: (updated) => `Updated webhook endpoint ${webhookSummary(updated)}`,
  });
}

/** The PATCH body the flags ask for; exit 2 when they ask for nothing or for both --enable and --disable. */
async function updateFromFlags(options: UpdateOptions): Promise<WebhookEndpointUpdate> {
  if (options.enable && options.disable) throw new UsageError('give --enable or --disable, not both');
  const { checkEndpointUrl, parseEventList } = await import('../../core/webhooks/input.js');
  const { checkEventTypes } = await import('../../cmdutil/filter-check.js');
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
