/**
 * What a shell completion script needs to know about the command line, independent of
 * commander: the generators in this folder turn it into bash, zsh and fish scripts.
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
export interface CompletionOption {
  /** `-o`, when the flag has a short form. */
  short?: string;
  /** `--output`. */
  long?: string;
  description: string;
  /** What its value completes to; undefined for a switch that takes no value. */
  value?: ValueSource;
}

/** One positional argument of a command. */
export interface CompletionArgument {
  name: string;
  /** Takes every remaining word. */
  variadic: boolean;
  value: ValueSource;
}

/** A command with its flags, arguments and subcommands. */
export interface CompletionCommand {
  name: string;
  description: string;
  options: CompletionOption[];
  arguments: CompletionArgument[];
  commands: CompletionCommand[];
}

/** The whole command line: the root command, and the flags every command accepts. */
export interface CompletionTree {
  root: CompletionCommand;
  /** Accepted before or after any subcommand (--profile, -o, …). */
  globalOptions: CompletionOption[];
}

/** One command and the words that lead to it from the root ('' for the root itself). */
export interface CommandAt {
  path: string;
  command: CompletionCommand;
}

/** Every command of the tree, parents before their children, in declaration order. */
export function commandsOf(tree: CompletionTree): CommandAt[] {
  const found: CommandAt[] = [];
  const visit = (command: CompletionCommand, path: string) => {
    found.push({ path, command });
    for (const sub of command.commands) visit(sub, path ? `${path} ${sub.name}` : sub.name);
  };
  visit(tree.root, '');
  return found;
}

/** The spellings of a flag: `-o`, `--output`. */
export function flagNames(option: CompletionOption): string[] {
  return [option.short, option.long].filter((name): name is string => name !== undefined);
}

/** The first line of a description, the form shells show beside a candidate. */
export function oneLine(description: string): string {
  return description.split('\n')[0]?.trim() ?? '';
}
