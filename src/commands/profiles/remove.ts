import type { Command } from 'commander';
import type { Context } from '../../cmdutil/context.js';
import { UsageError } from '../../errors.js';
import { unknownProfile } from './use.js';

/** `svc profiles remove P`. */
export function removeCommand(parent: Command, ctx: Context): void {
  parent
    .command('remove')
    .description('delete a saved profile and its key')
    .argument('<name>', 'profile name')
    .addHelpText('after', '\nExample:\n  svc profiles remove staging\n')
    .action(async (name: string) => {
      const config = await ctx.config();
      if (!config.removeProfile(name))
        throw new UsageError(unknownProfile(name, Object.keys(config.profiles)));
      ctx.messages.info(`Removed profile "${name}".`);
    });
}
