import { Deliverer } from '../../client/delivery.js';
import { defaultSleep } from '../../client/pacing/pacer.js';
import { defineCommand } from '../../cmdutil/define.js';
import { MAX_WAIT_SECONDS, secondsFlag, timeParser } from '../../cmdutil/parse.js';
import { runListen } from '../../core/events/listen.js';
import { checkReplayWindow } from '../../core/events/replay.js';
import { checkReceiverUrl } from '../../core/webhooks/input.js';
import { loadSigningSecret } from '../../core/webhooks/secret.js';
import { outcomeJson, outcomeLine } from '../../output/forwarding.js';
import { plural } from '../../words.js';

/** Options of `svc events listen`. */
export interface ListenCommandOptions {
  forwardTo: string;
  since?: string;
  interval: number;
  secretFile?: string;
}

/** Attempts per event before a refusing receiver's answer is reported (a down receiver is retried without end). */
const LISTEN_ATTEMPTS = 3;

/** Polls closer than this would run back to back: every wait has a floor. */
const MIN_INTERVAL_SECONDS = 0.1;

/** `svc events listen --forward-to URL`: forward new events to a local receiver until Ctrl-C. */
export const command = defineCommand<ListenCommandOptions>({
  path: ['events', 'listen'],
  rank: 3,
  description: 'poll the event log and forward each new event, signed, to a receiver (until Ctrl-C)',
  flags: [
    {
      flags: '--forward-to <url>',
      description: 'the receiver, e.g. http://localhost:3000/webhooks',
      required: true,
    },
    {
      flags: '--since <time>',
      description: 'also forward events from this time on (ISO 8601, 15m, 24h, today or yesterday)',
      parse: timeParser('--since'),
    },
    {
      flags: '--interval <s>',
      description: `seconds between polls of the event log, ${MIN_INTERVAL_SECONDS} to ${MAX_WAIT_SECONDS}`,
      parse: secondsFlag('--interval', MIN_INTERVAL_SECONDS),
      default: 2,
    },
    {
      flags: '--secret-file <f>',
      description: 'file holding the signing secret (instead of SVC_WEBHOOK_SECRET)',
    },
  ],
  takes: { output: 'lines' },
  examples: [
    'SVC_WEBHOOK_SECRET=whsec_… svc events listen --forward-to http://localhost:3000/webhooks',
    'svc events listen --forward-to http://localhost:3000/webhooks --since 15m --secret-file secret.txt',
  ],
  /** Checks the flags and the secret, then forwards until SIGINT or SIGTERM (exit 0). */
  async run(options, deps) {
    const url = checkReceiverUrl(options.forwardTo, '--forward-to');
    if (options.since !== undefined) {
      checkReplayWindow(options.since, deps.now());
    }
    const secret = await loadSigningSecret({ secretFile: options.secretFile, env: deps.env });
    const client = await deps.client();
    const deliverer = new Deliverer({ userAgent: `svc/${__SVC_VERSION__}` });
    const intervalMs = Math.round(options.interval * 1000);
    try {
      const summary = await runListen({
        client,
        deliverer,
        url,
        secret,
        since: options.since,
        intervalMs,
        now: deps.now,
        attempts: LISTEN_ATTEMPTS,
        signal: deps.signal,
        sleep: defaultSleep,
        onReady: ({ since }) =>
          deps.io.messages.info(
            `Forwarding ${since ? `events since ${since}` : 'new events'} to ${url} (polling every ${options.interval} s); press Ctrl-C to stop.`,
          ),
        onOutcome: (outcome) =>
          deps.io.wantsMachineText
            ? deps.io.printer.json(outcomeJson(outcome))
            : deps.io.printer.text(outcomeLine(outcome)),
        onRetry: (event, attempt) =>
          deps.io.messages.info(
            `${event.id}: ${attempt.error?.message ?? 'failed'}; retry in ${(attempt.retryInMs ?? 0) / 1000} s`,
          ),
        onReceiverDown: ({ error, waiting, retryInMs }) =>
          deps.io.messages.warn(
            `the receiver at ${url} is not answering (${error}); ${waiting} ${plural(waiting, 'event')} waiting, trying again in ${Math.round(retryInMs / 1000)} s`,
          ),
        onReceiverBack: () =>
          deps.io.messages.info(`The receiver at ${url} answers again; sending the waiting events.`),
        onPollError: (error, retryInMs) =>
          deps.io.messages.warn(
            `reading the event log failed (${error.message}); polling again in ${Math.round(retryInMs / 1000)} s`,
          ),
      });
      deps.io.messages.info(
        `Stopped: ${summary.forwarded} forwarded, ${summary.failed} failed${summary.waiting > 0 ? `, ${summary.waiting} still waiting for the receiver` : ''}.`,
      );
    } finally {
      await deliverer.close();
    }
  },
});
