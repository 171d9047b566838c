import { defineCommand } from '../../cmdutil/define.js';
import { fixedFields } from '../../cmdutil/fields.js';
import { countedWhere, quotaJson, spentSentence } from '../../core/quota/spent.js';

/** `svc quota`: the daily write quota svc has spent today on the key in force, as svc counted it. */
export const command = defineCommand<Record<string, never>>({
  path: ['quota'],
  group: 'Setup',
  rank: 3.5,
  description:
    'show the daily write quota svc has spent today on this key (this machine, or every machine sharing SVC_PACING_URL)',
  summary: 'show the daily write quota svc has spent today on this key',
  notes: [
    'svc counts the write requests the service accepted with this key since 00:00 UTC, one unit each, ' +
      'whatever the batch size; dry runs, refused requests, test keys and idempotent replays spend nothing. ' +
      'The service sends no count of its own (its dashboard shows one): other programs using the key are not in this count.',
    'The count is kept in the config dir for every svc process of this machine, and through Redis for every ' +
      'machine when SVC_PACING_URL is set. Sends no request.',
  ],
  examples: ['svc quota', 'svc quota --json | jq .spent'],
  fields: fixedFields([
    'day',
    'spent',
    'this_machine',
    'counted_by',
    'counted_on',
    'resets_at',
    'not_shared_because',
  ]),
  async run(_args, deps) {
    const client = await deps.client();
    const reading = await client.quotaSpent();
    if (!reading) throw new Error('svc keeps no count of the write quota without a config dir');
    await deps.io.printer.item(quotaJson(reading), {
      summary: () =>
        [
          `${spentSentence(reading, true)}, ${countedWhere(reading)}.`,
          client.live ? undefined : 'A test key spends no write quota: its writes are simulated.',
          reading.unshared
            ? `Only this machine's count: ${reading.unshared}.`
            : reading.countedOn !== 'this machine'
              ? `This machine's share: ${reading.thisMachine.toLocaleString('en-US')}.`
              : reading.spent === 0
                ? 'svc has counted 0 on this machine today; other machines are not counted without SVC_PACING_URL.'
                : undefined,
          `It resets at 00:00 UTC (${reading.resetsAt.toISOString()}). The service's own count, with other programs using the key, is in its dashboard.`,
        ]
          .filter((line) => line !== undefined)
          .join('\n'),
    });
  },
});
