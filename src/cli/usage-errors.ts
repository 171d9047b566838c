/** Where a usage error of commander's arose, so its line points to that command's help rather than the root's. */
import type { Command, CommanderError } from 'commander';

/** The command each usage error of commander's arose in, so that its line points to that command's help. */
const usageErrorOrigins = new WeakMap<CommanderError, string>();

/**
 * `svc inventory push --help`, for a usage error of commander's raised while parsing that
 * command (`svc` when unknown): where to look next, rather than the root's help.
 */
export function helpCommandFor(error: CommanderError): string {
  return `${usageErrorOrigins.get(error) ?? 'svc'} --help`;
}

/** Notes, on every command of the tree, where commander's usage errors arise (read by helpCommandFor). */
export function rememberWhereUsageErrorsArise(program: Command, args: readonly string[] = []): void {
  const visit = (command: Command) => {
    // The root parses the global flags wherever they stand: a bad --limit on `orders list` is that command's.
    const path = command === program ? commandWords(commandNamed(program, args)) : commandWords(command);
    command.exitOverride((error) => {
      usageErrorOrigins.set(error, path);
      throw error;
    });
    for (const sub of command.commands) visit(sub);
  };
  visit(program);
}

/** The deepest command the words name (`svc orders list` for `orders --limit 5 list`), else the root. */
function commandNamed(program: Command, args: readonly string[]): Command {
  const takesValue = (command: Command, flag: string) =>
    [command, program].some((at) =>
      at.options.some(
        (option) => (option.required || option.optional) && (option.long === flag || option.short === flag),
      ),
    );
  let command = program;
  for (let index = 0; index < args.length; index++) {
    const arg = args[index] ?? '';
    if (arg === '--') break;
    if (arg.startsWith('-')) {
      if (!arg.includes('=') && takesValue(command, arg)) index++;
      continue;
    }
    const sub = command.commands.find(
      (candidate) => candidate.name() === arg || candidate.aliases().includes(arg),
    );
    if (!sub) break;
    command = sub;
  }
  return command;
}

/** `svc orders list`: the words that run `command`. */
export function commandWords(command: Command): string {
  const path = [];
  for (let at: Command | null = command; at; at = at.parent) path.unshift(at.name());
  return path.join(' ');
}
