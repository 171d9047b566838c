import { Argument, type Command } from 'commander';
import type { Context } from '../../cmdutil/context.js';
import { SHELLS, type Shell } from '../../core/completion/shells.js';
import { UsageError } from '../../errors.js';

/** What `svc __complete` can list for the completion scripts. */
const DYNAMIC = ['profiles'] as const;

/**
 * `svc completion bash|zsh|fish`, the hidden `svc __complete` the scripts call at TAB time, and
 * the hidden `svc __docs` that `npm run docs` writes the command reference from: all three are
 * generated from the command tree, every command of it whatever part this run registered.
 */
export function registerCompletion(program: Command, ctx: Context): void {
  program
    .command('completion')
    .description('print the shell completion script for bash, zsh or fish')
    .addArgument(new Argument('<shell>', 'the shell to complete in').choices(SHELLS))
    .addHelpText(
      'after',
      [
        '',
        'The script completes commands, flags, output formats, statuses, event types and your profile names.',
        '',
        'Examples:',
        '  source <(svc completion bash)                              # bash: add this line to ~/.bashrc',
        '  svc completion zsh > ~/.zfunc/_svc                         # zsh: with fpath+=(~/.zfunc) before compinit',
        '  svc completion fish > ~/.config/fish/completions/svc.fish  # fish',
      ].join('\n'),
    )
    .action(async (shell: Shell) => {
      const { completionScript } = await import('../../core/completion/script.js');
      await ctx.io.printer.raw(completionScript(shell, await ctx.commandTree()).trimEnd());
    });

  program
    .command('__complete', { hidden: true })
    .description('print candidates for the completion scripts, one a line')
    .addArgument(new Argument('<what>').choices(DYNAMIC))
    .action(async (what: (typeof DYNAMIC)[number]) => {
      if (what !== 'profiles') throw new UsageError(`nothing to complete for "${what}"`);
      const config = await ctx.config();
      for (const name of Object.keys(config.profiles)) await ctx.io.printer.text(name);
    });

  program
    .command('__docs', { hidden: true })
    .description('print the command reference (docs/commands/*.md, man/svc.1) as JSON: file path to content')
    .action(async () => {
      const { commandReference } = await import('../../core/docs/reference.js');
      await ctx.io.printer.text(JSON.stringify(commandReference(await ctx.commandTree()), null, 2));
    });
}
