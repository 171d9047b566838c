import { Deliverer } from '../../client/delivery.js';
import { defineCommand } from '../../cmdutil/define.js';
import { checkEventType } from '../../cmdutil/filter-check.js';
import { fromArray, printList } from '../../cmdutil/list-command.js';
import { TIME_HELP, timeParser } from '../../cmdutil/parse.js';
import { rerunCommand } from '../../cmdutil/rerun.js';
import type { ForwardOutcome } from '../../core/events/forward.js';
import { checkReplayWindow, collectWindow, type ReplaySummary, runReplay } from '../../core/events/replay.js';
import { checkReceiverUrl } from '../../core/webhooks/input.js';
import { loadSigningSecret } from '../../core/webhooks/secret.js';
import { CommandFailed, PartialFailure } from '../../errors.js';
import { outcomeJson, outcomeLine } from '../../output/forwarding.js';
import { eventsView } from '../../output/views/events.js';
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
export const command = defineCommand<ReplayCommandOptions>({
  path: ['events', 'replay'],
  rank: 2,
  description:
    'send the events of a window (30 days at most) to a receiver, oldest first, signed as the service signs',
  flags: [
    {
      flags: '--since <time>',
      description: TIME_HELP,
      parse: timeParser('--since'),
      required: true,
    },
    { flags: '--to <url>', description: 'the receiver, e.g. http://localhost:3000/webhooks', required: true },
    { flags: '--type <type>', description: 'only this event type, e.g. order.created' },
    { flags: '--dry-run', description: 'list what would be sent, send nothing' },
    {
      flags: '--secret-file <f>',
      description: 'file holding the signing secret (instead of SVC_WEBHOOK_SECRET)',
    },
  ],
  takes: { output: 'lines' },
  examples: [
    'SVC_WEBHOOK_SECRET=whsec_… svc events replay --since 24h --to http://localhost:3000/webhooks',
    'svc events replay --since 2026-11-01T09:00:00Z --to https://example.com/hooks --type order.created --dry-run',
  ],
  /** Checks everything local first (window, URL, secret), then reads the window and sends it. */
  async run(options, deps) {
    checkReplayWindow(options.since, deps.now());
    checkEventType(options.type);
    const url = checkReceiverUrl(options.to, '--to');
    let secret = '';
    if (!options.dryRun) {
      secret = await loadSigningSecret({ secretFile: options.secretFile, env: deps.env });
    }
    const events = await collectWindow(
      await deps.client(),
      { since: options.since, type: options.type },
      deps.signal,
    );
    if (options.dryRun) {
      await printList(deps, fromArray(events), eventsView, 'events');
      deps.io.messages.info(
        `Dry run: would send ${events.length} ${plural(events.length, 'event')} to ${url}, oldest first; nothing was sent.`,
      );
      return;
    }
    if (events.length === 0) {
      deps.io.messages.info(
        `No events since ${options.since}${options.type ? ` of type ${options.type}` : ''}; nothing to send.`,
      );
      return;
    }
    const deliverer = new Deliverer({ userAgent: `svc/${__SVC_VERSION__}` });
    const json = deps.io.wantsJson;
    const ndjson = deps.io.format === 'ndjson';
    const outcomes: ForwardOutcome[] = [];
    let summary: ReplaySummary;
    try {
      summary = await runReplay(events, {
        deliverer,
        url,
        secret,
        now: deps.now,
        attempts: REPLAY_ATTEMPTS,
        signal: deps.signal,
        onRetry: (event, attempt) =>
          deps.io.messages.info(
            `${event.id}: ${attempt.error?.message ?? 'failed'}; retry ${attempt.attempt}/${REPLAY_ATTEMPTS - 1} in ${(attempt.retryInMs ?? 0) / 1000} s`,
          ),
        onOutcome: async (outcome) => {
          if (json) outcomes.push(outcome);
          else if (ndjson) await deps.io.printer.json(outcomeJson(outcome));
          else await deps.io.printer.text(outcomeLine(outcome));
        },
      });
    } finally {
      await deliverer.close();
    }
    const line = `${counted(summary.total, 'event')} to ${url} (${summary.seconds.toFixed(1)} s): ${summary.delivered} delivered, ${summary.failed} failed, ${summary.skipped} skipped`;
    if (json) {
      const { seconds, total, delivered, failed, skipped } = summary;
      await deps.io.printer.json(
        { total, delivered, failed, skipped, seconds, events: outcomes.map(outcomeJson) },
        2,
      );
    } else {
      deps.io.messages.info(line);
    }
    if (summary.interrupted) {
      if (summary.resumeSince) {
        const rest = rerunCommand(deps.argv, { set: { '--since': summary.resumeSince } });
        deps.io.messages.warn(
          `stopped with ${summary.delivered} of ${summary.total} events delivered; \`${rest}\` sends the rest (receivers deduplicate by event id)`,
        );
      }
      throw deps.signal.reason;
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
  },
});
