import type { Command } from 'commander';
import type { Context } from '../../cmdutil/context.js';
import { UsageError } from '../../errors.js';
import { unknownProfile } from './use.js';

/** `svc profiles remove P`. */
export function removeCommand(parent: Command, ctx: Context, run = runRemove): Command {
  return parent
    .command('remove')
    .description('delete a saved profile and its key (from the keyring or the file)')
    .argument('<name>', 'profile name')
    .addHelpText('after', '\nExample:\n  svc profiles remove staging\n')
    .action(async (name: string) => run(ctx, name));
}

/** Runs `svc profiles remove` once its flags are parsed. */
export async function runRemove(ctx: Context, name: string): Promise<void> {
  const config = await ctx.config();
  if (!config.profiles[name]) throw new UsageError(unknownProfile(name, Object.keys(config.profiles)));
  const { removeProfile } = await import('../../core/auth/keys.js');
  const { problem } = await removeProfile(config, await ctx.keyring(), name);
  if (problem) ctx.io.messages.warn(problem);
  ctx.io.messages.info(`Removed profile "${name}".`);
}
