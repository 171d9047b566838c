import type { Command } from 'commander';
import type { Context } from '../../cmdutil/context.js';
import { timeFlag } from '../../cmdutil/parse.js';
import type { ForwardOutcome } from '../../core/events/forward.js';
import type { ReplaySummary } from '../../core/events/replay.js';
import { CommandFailed, PartialFailure } from '../../errors.js';
import { counted, plural } from '../../words.js';

/** Options of `svc events replay`. */
export interface ReplayCommandOptions {
  since: string;
  to: string;
  type?: string;
  dryRun?: boolean;
  secretFile?: string;
}

/** Attempts per event: the first and three retries with the CLI's backoff. */
const REPLAY_ATTEMPTS = 4;

/** `svc events replay --since T --to URL`: resend the log's events, oldest first, signed. */
export function replayCommand(parent: Command, ctx: Context, run = runReplayCommand): Command {
  return parent
    .command('replay')
    .description(
      'send the events of a window (30 days at most) to a receiver, oldest first, signed as the service signs',
    )
    .requiredOption(
      '--since <time>',
      'ISO 8601 or a duration back from now (24h, 7d)',
      timeFlag('--since', ctx.now),
    )
    .requiredOption('--to <url>', 'the receiver, e.g. http://localhost:3000/webhooks')
    .option('--type <type>', 'only this event type, e.g. order.created')
    .option('--dry-run', 'list what would be sent, send nothing')
    .option('--secret-file <f>', 'file holding the signing secret (instead of SVC_WEBHOOK_SECRET)')
    .addHelpText(
      'after',
      '\nExamples:\n  SVC_WEBHOOK_SECRET=whsec_… svc events replay --since 24h --to http://localhost:3000/webhooks\n  svc events replay --since 2026-11-01T09:00:00Z --to https://example.com/hooks --type order.created --dry-run\n',
    )
    .action(async (options: ReplayCommandOptions) => run(ctx, options));
}

/** Checks everything local first (window, URL, secret), then reads the window and sends it. */
export async function runReplayCommand(ctx: Context, options: ReplayCommandOptions): Promise<void> {
  const { checkReplayWindow, collectWindow, runReplay } = await import('../../core/events/replay.js');
  const { checkReceiverUrl } = await import('../../core/webhooks/input.js');
  const { checkEventType } = await import('../../cmdutil/filter-check.js');
  checkReplayWindow(options.since, ctx.now());
  checkEventType(options.type);
  const url = checkReceiverUrl(options.to, '--to');
  let secret = '';
  if (!options.dryRun) {
    const { loadSigningSecret } = await import('../../core/webhooks/secret.js');
    secret = await loadSigningSecret({ secretFile: options.secretFile, env: ctx.env });
  }
  const events = await collectWindow(
    await ctx.client(),
    { since: options.since, type: options.type },
    ctx.signal,
  );
  if (options.dryRun) {
    const { printList, fromArray } = await import('../../cmdutil/list-command.js');
    const { eventsView } = await import('../../output/views/events.js');
    await printList(ctx, fromArray(events), eventsView, 'events');
    ctx.io.messages.info(
      `Dry run: would send ${events.length} ${plural(events.length, 'event')} to ${url}, oldest first; nothing was sent.`,
    );
    return;
  }
  if (events.length === 0) {
    ctx.io.messages.info(
      `No events since ${options.since}${options.type ? ` of type ${options.type}` : ''}; nothing to send.`,
    );
    return;
  }
  const { Deliverer } = await import('../../client/delivery.js');
  const { outcomeLine, outcomeJson } = await import('../../output/forwarding.js');
  const deliverer = new Deliverer({ userAgent: `svc/${__SVC_VERSION__}` });
  const json = ctx.io.wantsJson;
  const ndjson = ctx.io.format === 'ndjson';
  const outcomes: ForwardOutcome[] = [];
  let summary: ReplaySummary;
  try {
    summary = await runReplay(events, {
      deliverer,
      url,
      secret,
      now: ctx.now,
      attempts: REPLAY_ATTEMPTS,
      signal: ctx.signal,
      onRetry: (event, attempt) =>
        ctx.io.messages.info(
          `${event.id}: ${attempt.error?.message ?? 'failed'}; retry ${attempt.attempt}/${REPLAY_ATTEMPTS - 1} in ${(attempt.retryInMs ?? 0) / 1000} s`,
        ),
      onOutcome: async (outcome) => {
        if (json) outcomes.push(outcome);
        else if (ndjson) await ctx.io.printer.json(outcomeJson(outcome));
        else await ctx.io.printer.text(outcomeLine(outcome));
      },
    });
  } finally {
    await deliverer.close();
  }
  const line = `${counted(summary.total, 'event')} to ${url} (${summary.seconds.toFixed(1)} s): ${summary.delivered} delivered, ${summary.failed} failed, ${summary.skipped} skipped`;
  if (json) {
    const { seconds, total, delivered, failed, skipped } = summary;
    await ctx.io.printer.json(
      { total, delivered, failed, skipped, seconds, events: outcomes.map(outcomeJson) },
      2,
    );
  } else {
    ctx.io.messages.info(line);
  }
  if (summary.interrupted) {
    if (summary.resumeSince) {
      const { rerunCommand } = await import('../../cmdutil/rerun.js');
      const rest = rerunCommand(ctx.argv, { set: { '--since': summary.resumeSince } });
      ctx.io.messages.warn(
        `stopped with ${summary.delivered} of ${summary.total} events delivered; \`${rest}\` sends the rest (receivers deduplicate by event id)`,
      );
    }
    throw ctx.signal.reason;
  }
  if (summary.delivered === 0) {
    const why = summary.stoppedBecause ? `: ${summary.stoppedBecause}` : '';
    throw new CommandFailed(
      `none of the ${summary.total} events could be delivered to ${url}${why}; check that the receiver is running and answers 2xx, then run again`,
    );
  }
  if (summary.failed > 0 || summary.skipped > 0) {
    throw new PartialFailure(
      `${summary.failed + summary.skipped} of ${summary.total} events were not delivered${summary.stoppedBecause ? ` (${summary.stoppedBecause})` : ''}; run again with the same --since once the receiver is fixed (receivers deduplicate by event id)`,
    );
  }
}
