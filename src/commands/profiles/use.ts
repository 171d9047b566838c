import { defineCommand } from '../../cmdutil/define.js';
import { unknownProfile } from '../../cmdutil/profiles/unknown.js';
import { UsageError } from '../../errors.js';

/** `svc profiles use P`. */
export const command = defineCommand<{ name: string }>({
  path: ['profiles', 'use'],
  rank: 2,
  description: 'make a saved profile the current one',
  args: [{ name: 'name', description: 'profile name' }],
  takes: { offline: true },
  examples: ['svc profiles use staging'],
  async run({ name }, deps) {
    const config = await deps.config();
    if (!config.profiles[name]) throw new UsageError(unknownProfile(name, Object.keys(config.profiles)));
    await config.useProfile(name);
    deps.io.messages.info(`Now using profile "${name}".`);
  },
});
