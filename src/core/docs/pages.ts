/** How the generated reference groups commands into pages, and what it says it is. */
import { type CommandAt, type CommandTree, commandsOf } from '../command-tree.js';

/** The first line of every generated file (as a comment in its language). */
export const GENERATED_NOTICE =
  "Generated from the command tree by `npm run docs`: edit the commands' help, not this file.";

/** A top-level command and everything below it, which share one page. */
export interface TopCommand {
  path: string;
  page: string;
  command: CommandAt['command'];
  /** It and every command below it, parents first, in declaration order; help commands left out. */
  commands: CommandAt[];
}

/** The top-level commands, in the order `svc --help` lists them, each with its page. */
export function topCommands(tree: CommandTree): TopCommand[] {
  const documented = commandsOf(tree).filter(({ path, command }) => path !== '' && !isHelpCommand(command));
  return tree.root.commands
    .filter((command) => !isHelpCommand(command))
    .map((command) => ({
      path: command.name,
      page: `${command.name}.md`,
      command,
      commands: documented.filter(({ path }) => path === command.name || path.startsWith(`${command.name} `)),
    }));
}

/** commander's implicit `help [command]`, which every command with subcommands has. */
function isHelpCommand(command: CommandAt['command']): boolean {
  return command.name === 'help' && command.commands.length === 0 && command.options.length === 0;
}
