import { listEvents } from '../../client/resources/events.js';
import { defineCommand } from '../../cmdutil/define.js';
import { schemaFields } from '../../cmdutil/fields.js';
import { checkEventType } from '../../cmdutil/filter-check.js';
import { printList } from '../../cmdutil/list-command.js';
import { TIME_HELP, timeParser } from '../../cmdutil/parse.js';
import { Event } from '../../contract/schemas/event.js';
import { eventsView } from '../../output/views/events.js';

/** `svc events list`: newest first. */
export const command = defineCommand<{ since?: string; type?: string }>({
  path: ['events', 'list'],
  rank: 1,
  description: 'list events, newest first',
  flags: [
    {
      flags: '--since <time>',
      description: TIME_HELP,
      parse: timeParser('--since'),
    },
    { flags: '--type <type>', description: 'only this event type, e.g. order.created' },
  ],
  takes: { list: true },
  fields: schemaFields(async () => Event),
  examples: ['svc events list --since 24h', 'svc events list --type order.created --all -o ndjson'],
  async run(options, deps) {
    const type = checkEventType(options.type, { operation: 'listEvents', param: 'type' });
    const filters = { created_after: options.since, type };
    await printList(deps, listEvents(await deps.client(), filters, deps.io.listLimit), eventsView, 'events');
  },
});
