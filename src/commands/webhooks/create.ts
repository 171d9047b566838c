import type { Command } from 'commander';
import type { Context } from '../../cmdutil/context.js';

/** Options of `svc webhooks create`. */
export interface CreateOptions {
  url: string;
  events?: string;
  description?: string;
}

/** `svc webhooks create --url U [--events a,b]`: prints the signing secret, once. */
export function createCommand(parent: Command, ctx: Context, run = runCreate): Command {
  return parent
    .command('create')
    .description('register a webhook endpoint; its signing secret is shown once')
    .requiredOption('--url <url>', 'https:// receiver (plain http only to localhost)')
    .option('--events <types>', 'comma-separated event types, or * for all (default: all)')
    .option('--description <text>', 'a note for people')
    .addHelpText(
      'after',
      '\nExamples:\n  svc webhooks create --url https://example.com/hooks\n  svc webhooks create --url http://localhost:3000/hooks --events order.created,order.status_changed\n',
    )
    .action(async (options: CreateOptions) => run(ctx, options));
}

/** Checks the flags, creates the endpoint, shows it with its secret and a warning on stderr. */
export async function runCreate(ctx: Context, options: CreateOptions): Promise<void> {
  const { checkEndpointUrl, parseEventList } = await import('../../core/webhooks/input.js');
  const { checkEventTypes } = await import('../../cmdutil/filter-check.js');
  const fields = ctx.globals.fields;
  if (fields && !fields.includes('secret')) {
    // The secret is shown once, at creation: output that leaves it out would lose it for good.
    const { UsageError } = await import('../../errors.js');
    throw new UsageError(
      `--fields ${fields.join(',')} leaves out secret, which the service shows only now; add secret to --fields`,
    );
  }
  const input = {
    url: checkEndpointUrl(options.url),
    enabled_events: checkEventTypes(parseEventList(options.events)),
    description: options.description,
  };
  const { createWebhookEndpoint } = await import('../../client/resources/webhooks.js');
  const { webhookSummary } = await import('../../output/views/webhooks.js');
  const endpoint = await createWebhookEndpoint(await ctx.client(), input);
  await ctx.io.printer.item(endpoint, {
    summary: (created) =>
      [
        `Created webhook endpoint ${webhookSummary(created)}`,
        '',
        `Signing secret: ${created.secret ?? '(the service sent none)'}`,
      ].join('\n'),
  });
  ctx.io.messages.warn(
    'this is the only time the signing secret is shown: store it now (e.g. in SVC_WEBHOOK_SECRET); it will not be shown again',
  );
}
