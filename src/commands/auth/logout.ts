import type { Command } from 'commander';
import type { Context } from '../../cmdutil/context.js';
import { UsageError } from '../../errors.js';

/** `svc auth logout`: forgets the key of the current (or --profile) profile, wherever it is kept. */
export function logoutCommand(parent: Command, ctx: Context, run = runLogout): Command {
  return parent
    .command('logout')
    .description('forget the saved key of the current profile (or --profile P), from the keyring or the file')
    .addHelpText('after', '\nExamples:\n  svc auth logout\n  svc auth logout --profile staging\n')
    .action(async () => run(ctx));
}

/** Runs `svc auth logout` once its flags are parsed. */
export async function runLogout(ctx: Context): Promise<void> {
  const config = await ctx.config();
  const name = ctx.globals.profile ?? ctx.env.SVC_PROFILE ?? config.currentProfile;
  if (!name || !config.profiles[name])
    throw new UsageError(
      name ? `unknown profile "${name}" (svc profiles list)` : 'not logged in: no current profile',
    );
  const { forgetKey } = await import('../../core/auth/keys.js');
  const { storage, problem } = await forgetKey(config, await ctx.keyring(), name);
  if (problem) ctx.io.messages.warn(problem);
  const from =
    storage === 'keyring' ? ' from the OS keyring' : storage === 'file' ? ' from the config file' : '';
  ctx.io.messages.info(`Logged out of profile "${name}"; its key is forgotten${problem ? '' : from}.`);
  if (ctx.env.SVC_API_KEY)
    ctx.io.messages.warn('SVC_API_KEY is still set in this environment and will be used.');
}
