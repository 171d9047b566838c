import type { Command } from 'commander';
import type { Context } from '../../cmdutil/context.js';
import { UsageError } from '../../errors.js';

/** `svc auth logout`: forgets the key of the current (or --profile) profile. */
export function logoutCommand(parent: Command, ctx: Context): void {
  parent
    .command('logout')
    .description('forget the saved key of the current profile (or --profile P)')
    .addHelpText('after', '\nExamples:\n  svc auth logout\n  svc auth logout --profile staging\n')
    .action(async () => {
      const config = await ctx.config();
      const name = ctx.globals.profile ?? ctx.env.SVC_PROFILE ?? config.currentProfile;
      const profile = name ? config.profiles[name] : undefined;
      if (!name || !profile)
        throw new UsageError(
          name ? `unknown profile "${name}" (svc profiles list)` : 'not logged in: no current profile',
        );
      config.saveProfile(name, { base_url: profile.base_url });
      ctx.messages.info(`Logged out of profile "${name}"; its key is forgotten.`);
      if (ctx.env.SVC_API_KEY)
        ctx.messages.warn('SVC_API_KEY is still set in this environment and will be used.');
    });
}
