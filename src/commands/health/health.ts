import { defineCommand } from '../../cmdutil/define.js';
import { schemaFields } from '../../cmdutil/fields.js';

/** `svc health`: the liveness probe; needs no key. */
export const command = defineCommand<Record<string, never>>({
  path: ['health'],
  group: 'Setup',
  rank: 5,
  description: 'check that the API and its database answer (no key needed)',
  fields: schemaFields(async () => (await import('../../contract/schemas/status.js')).Health),
  examples: ['svc health', 'svc health --json'],
  async run(_args, deps) {
    const { getHealth } = await import('../../client/resources/service.js');
    const { healthText } = await import('../../output/views/service.js');
    const health = await getHealth(await deps.client({ auth: false }));
    await deps.io.printer.item(health, { summary: healthText });
  },
});
