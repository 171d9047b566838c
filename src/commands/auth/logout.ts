import { defineCommand } from '../../cmdutil/define.js';
import { forgetKey } from '../../core/auth/keys.js';
import { UsageError } from '../../errors.js';

/** `svc auth logout`: forgets the key of the current (or --profile) profile, wherever it is kept. */
export const command = defineCommand<Record<string, never>>({
  path: ['auth', 'logout'],
  rank: 3,
  description: 'forget the saved key of the current profile (or --profile P), from the keyring or the file',
  examples: ['svc auth logout', 'svc auth logout --profile staging'],
  async run(_args, deps) {
    const config = await deps.config();
    const name = deps.globals.profile ?? deps.env.SVC_PROFILE ?? config.currentProfile;
    if (!name || !config.profiles[name])
      throw new UsageError(
        name ? `unknown profile "${name}" (svc profiles list)` : 'not logged in: no current profile',
      );
    const { storage, problem } = await forgetKey(config, await deps.keyring(), name);
    if (problem) deps.io.messages.warn(problem);
    const from =
      storage === 'keyring' ? ' from the OS keyring' : storage === 'file' ? ' from the config file' : '';
    deps.io.messages.info(`Logged out of profile "${name}"; its key is forgotten${problem ? '' : from}.`);
    if (deps.env.SVC_API_KEY)
      deps.io.messages.warn('SVC_API_KEY is still set in this environment and will be used.');
  },
});
