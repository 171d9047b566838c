import type { Command } from 'commander';
import type { Context } from '../../cmdutil/context.js';
import { UsageError } from '../../errors.js';

/** `svc profiles use P`. */
export function useCommand(parent: Command, ctx: Context, run = runUse): Command {
  return parent
    .command('use')
    .description('make a saved profile the current one')
    .argument('<name>', 'profile name')
    .addHelpText('after', '\nExample:\n  svc profiles use staging\n')
    .action(async (name: string) => run(ctx, name));
}

/** Runs `svc profiles use` once its flags are parsed. */
export async function runUse(ctx: Context, name: string): Promise<void> {
  const config = await ctx.config();
  if (!config.profiles[name]) throw new UsageError(unknownProfile(name, Object.keys(config.profiles)));
  config.useProfile(name);
  ctx.io.messages.info(`Now using profile "${name}".`);
}

/** The message for a profile name that is not saved, listing the ones that are. */
export function unknownProfile(name: string, known: string[]): string {
  return `unknown profile "${name}"; ${known.length ? `saved profiles: ${known.join(', ')}` : 'none saved yet (svc auth login)'}`;
}
