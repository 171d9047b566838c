import { defineCommand } from '../../cmdutil/define.js';
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

/** The message for a profile name that is not saved, listing the ones that are. */
export function unknownProfile(name: string, known: string[]): string {
  return `unknown profile "${name}"; ${known.length ? `saved profiles: ${known.join(', ')}` : 'none saved yet (svc auth login)'}`;
}
