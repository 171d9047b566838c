import { getHealth } from '../../client/resources/service.js';
import { defineCommand } from '../../cmdutil/define.js';
import { schemaFields } from '../../cmdutil/fields.js';
import { Health } from '../../contract/schemas/status.js';
import { healthText } from '../../output/views/service.js';

/** `svc health`: the liveness probe; needs no key. */
export const command = defineCommand<Record<string, never>>({
  path: ['health'],
  group: 'Setup',
  rank: 5,
  description: 'check that the API and its database answer (no key needed)',
  fields: schemaFields(async () => Health),
  examples: ['svc health', 'svc health --json'],
  async run(_args, deps) {
    const health = await getHealth(await deps.client({ auth: false }));
    await deps.io.printer.item(health, { summary: healthText });
  },
});
