/**
 * The command line as data, independent of commander: what `svc --help` says about every
 * command. core/completion turns it into bash, zsh and fish scripts, core/docs into the
 * command reference (docs/commands/) and the man page.
 */

/** Where the candidates for a flag's value or an argument come from. */
export type ValueSource =
  /** Free text (an id, a URL, a number): nothing to offer. */
  | { kind: 'none' }
  /** A path on disk. */
  | { kind: 'file' }
  /** A fixed set; `list` when the value is a comma-separated list of them. */
  | { kind: 'choices'; values: readonly string[]; list?: boolean }
  /** Saved profile names, asked of `svc __complete profiles` at completion time. */
  | { kind: 'profiles' };

/** One flag of a command. */
export interface TreeOption {
  /** `-o`, when the flag has a short form. */
  short?: string;
  /** `--output`. */
  long?: string;
  /** As `--help` shows it: `-o, --output <format>`. */
  flags: string;
  description: string;
  /** The default `--help` shows (`100`, `"127.0.0.1"`), when it shows one. */
  defaultValue?: string;
  /** The only values it accepts, when it says (`--help` lists them). */
  choices?: readonly string[];
  /** What its value completes to; undefined for a switch that takes no value. */
  value?: ValueSource;
}

/** One positional argument of a command. */
export interface TreeArgument {
  name: string;
  description: string;
  /** `<file>` rather than `[file]`. */
  required: boolean;
  /** The only values it accepts, when it says (`--help` lists them). */
  choices?: readonly string[];
  /** Takes every remaining word. */
  variadic: boolean;
  value: ValueSource;
}

/** A command with its flags, arguments and subcommands. */
export interface TreeCommand {
  name: string;
  /** The usage line of `--help`, from the root: `svc orders list [options]`. */
  usage: string;
  description: string;
  options: TreeOption[];
  arguments: TreeArgument[];
  /** What `--help` prints after the flags (notes and examples), without surrounding blank lines. */
  helpText: string;
  /** The global options (long names) a command that runs something takes; undefined: all of them. */
  globals?: string[];
  commands: TreeCommand[];
}

/** A help topic (`svc help environment`), also a section of the man page. */
export interface TreeTopic {
  /** The word after `svc help`. */
  name: string;
  /** Its section in the man page: ENVIRONMENT, EXIT STATUS. */
  section: string;
  summary: string;
  /** Name and meaning, a line each (variables, exit codes). */
  rows?: readonly (readonly [string, string])[];
  /** Lines of text after the rows. */
  text?: readonly string[];
}

/** The whole command line: the root command, and the flags every command accepts. */
export interface CommandTree {
  root: TreeCommand;
  /** Accepted before or after any subcommand (--profile, -o, …). */
  globalOptions: TreeOption[];
  /** The help topics, which the man page gives sections of their own. */
  topics?: readonly TreeTopic[];
  /** Which global options apply to which kind of command, as lines of text. */
  globalScopes?: readonly string[];
}

/** One command and the words that lead to it from the root ('' for the root itself). */
export interface CommandAt {
  path: string;
  command: TreeCommand;
}

/** Every command of the tree, parents before their children, in declaration order. */
export function commandsOf(tree: CommandTree): CommandAt[] {
  const found: CommandAt[] = [];
  const visit = (command: TreeCommand, path: string) => {
    found.push({ path, command });
    for (const sub of command.commands) visit(sub, path ? `${path} ${sub.name}` : sub.name);
  };
  visit(tree.root, '');
  return found;
}

/**
 * The global options `command` accepts: those its help lists, or every one where it runs
 * nothing itself (the root, a noun), since they may stand before the words that follow.
 */
export function globalsOf(tree: CommandTree, command: TreeCommand): TreeOption[] {
  const { globals } = command;
  if (!globals) return tree.globalOptions;
  return tree.globalOptions.filter((option) => globals.includes(option.long ?? option.short ?? ''));
}

/** The spellings of a flag: `-o`, `--output`. */
export function flagNames(option: TreeOption): string[] {
  return [option.short, option.long].filter((name): name is string => name !== undefined);
}

/** The first line of a description, the form shells show beside a candidate. */
export function oneLine(description: string): string {
  return description.split('\n')[0]?.trim() ?? '';
}
