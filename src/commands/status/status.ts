import { getStatus } from '../../client/resources/service.js';
import { defineCommand } from '../../cmdutil/define.js';
import { schemaFields } from '../../cmdutil/fields.js';
import { Status } from '../../contract/schemas/status.js';
import { statusText } from '../../output/views/service.js';

/** `svc status`: the public status page's data; needs no key. */
export const command = defineCommand<Record<string, never>>({
  path: ['status'],
  group: 'Setup',
  rank: 4,
  description: 'show the service status page data (no key needed)',
  fields: schemaFields(async () => Status),
  examples: ['svc status', 'svc status --json | jq .uptime_24h'],
  async run(_args, deps) {
    const status = await getStatus(await deps.client({ auth: false }));
    await deps.io.printer.item(status, { summary: (item, now) => statusText(item, now, deps.io) });
  },
});
