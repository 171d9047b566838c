import { defineCommand } from '../../cmdutil/define.js';
import { unknownProfile } from '../../cmdutil/profiles/unknown.js';
import { removeProfile } from '../../core/auth/keys.js';
import { UsageError } from '../../errors.js';

/** `svc profiles remove P`. */
export const command = defineCommand<{ name: string }>({
  path: ['profiles', 'remove'],
  rank: 3,
  description: 'delete a saved profile and its key (from the keyring or the file)',
  args: [{ name: 'name', description: 'profile name' }],
  takes: { offline: true },
  examples: ['svc profiles remove staging'],
  async run({ name }, deps) {
    const config = await deps.config();
    if (!config.profiles[name]) throw new UsageError(unknownProfile(name, Object.keys(config.profiles)));
    const { problem } = await removeProfile(config, await deps.keyring(), name);
    if (problem) deps.io.messages.warn(problem);
    deps.io.messages.info(`Removed profile "${name}".`);
  },
});
