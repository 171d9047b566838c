/** How help reads: the global flags a command takes, the root's footer, and nouns pointing to their verbs. */
import { type Command, Help, Option } from 'commander';
import { flagsFor, isScoped } from './command-scopes.js';
import { EXIT_MEANINGS } from './exit.js';
import { scopeOf } from './global-flags.js';
import { commandWords } from './usage-errors.js';

/**
 * A command's help ends with the global flags it takes, under "Global options", as `gh`
 * shows inherited flags; a noun's help (it runs nothing) and the root's list none.
 */
export const GLOBAL_OPTIONS_HELP: Partial<Help> = {
  showGlobalOptions: true,
  visibleGlobalOptions(command: Command): Option[] {
    if (command.commands.length > 0 || !command.parent) return [];
    const scope = scopeOf(command);
    const allowed = scope ? flagsFor(scope) : undefined;
    const root = rootOf(command);
    return root
      .createHelp()
      .visibleOptions(root)
      .filter((option) => {
        if (option.long === '--help' || option.long === '--version') return false;
        const name = option.attributeName();
        return !allowed || !isScoped(name) || allowed.has(name);
      })
      .map((option) =>
        option.long === '--output' && scope?.writes ? withWrites(option, scope.writes) : option,
      );
  },
  // `ls` (kubectl's and gh's word for list) is accepted, not advertised: help says `list`.
  commandUsage(command: Command): string {
    return Help.prototype.commandUsage.call(this, command).replace(/\|ls\b/g, '');
  },
  subcommandTerm(command: Command): string {
    return Help.prototype.subcommandTerm.call(this, command).replace(/\|ls\b/g, '');
  },
  formatItemList(heading: string, items: string[], helper: Help): string[] {
    const title = heading === 'Global Options:' ? 'Global options:' : heading;
    return Help.prototype.formatItemList.call(this, title, items, helper);
  },
};

/** -o as a command with a format of its own shows it: what it writes when -o is not given. */
function withWrites(option: Option, writes: string): Option {
  const shown = new Option(option.flags, `table, json, ndjson, csv or tsv; without it: ${writes}`);
  return option.argChoices ? shown.choices(option.argChoices) : shown;
}

function rootOf(command: Command): Command {
  let root = command;
  while (root.parent) root = root.parent;
  return root;
}

/** What `svc --help` ends with: examples, the exit codes, where to look next. */
export const ROOT_HELP_FOOTER = [
  '',
  'Examples:',
  '  svc emulator start                           # a local service to try things against',
  '  svc auth login',
  '  svc orders list --status awaiting_shipment',
  '  svc inventory push stock.csv --dry-run',
  '',
  'Exit codes:',
  ...EXIT_MEANINGS.map(([code, meaning]) => `  ${code.padEnd(9)}${meaning}`),
  '',
  'Run `svc COMMAND --help` for its flags and examples, and `svc completion --help` for TAB completion.',
  'Topics: `svc help environment` (variables), `svc help exit-codes`, `svc help formats` (output, CSV input).',
].join('\n');

/** A command with subcommands says where its examples are: in each subcommand's help. */
export function pointToVerbs(command: Command): void {
  if (command.commands.length === 0) return;
  command.addHelpText(
    'after',
    `\nRun \`${commandWords(command)} COMMAND --help\` for a command's flags and examples.`,
  );
  for (const sub of command.commands) pointToVerbs(sub);
}
