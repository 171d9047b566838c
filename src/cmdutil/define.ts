/**
 * A command is one definition (docs/architecture.md, How to add a command): its path, help
 * group, description, examples, arguments and flags, the global flags it takes, its --fields,
 * and `run(args, deps)`. The kit (src/cli/program.ts) turns the list of definitions into
 * commander, help, completion, docs and the man page; nothing else registers a command.
 */
import type { ValueSource } from '../core/command-tree.js';
import type { Deps } from './deps.js';

/** Where `svc --help` lists a top-level command, in this order. */
export const HELP_GROUPS = ['Catalog', 'Inventory', 'Listings', 'Orders', 'Events', 'Setup'] as const;
export type HelpGroup = (typeof HELP_GROUPS)[number];

/** What the global flags can mean to a command (docs/guide.md, Global options). */
export interface Takes {
  /** A list: --all and --limit choose how much of it, and --query sees it as one array. */
  list?: boolean;
  /** It prints the service's answer as it came (svc api): an object, an array only when crawled. */
  asAnswered?: boolean;
  /** It asks before acting: --yes answers. */
  confirms?: boolean;
  /**
   * What it prints: `data` (the default) takes every output flag; `lines` (its own lines, or
   * one JSON object per event) only -o and --json; `none` (a script, a server) none of them.
   */
  output?: 'data' | 'lines' | 'none';
  /** It reaches neither the service nor a profile (a local check, the emulator, a script): no connection flags. */
  offline?: boolean;
  /**
   * What it writes where -o is not given, when that is not the usual table or tsv (`inventory
   * export`: csv whatever the terminal): its help says so beside -o.
   */
  writes?: string;
}

/** What parsing a flag's value may need beyond the value. */
interface ParseContext {
  /** The run's clock (durations such as `24h` count back from it). */
  now: () => number;
  /** Whose midnight `today` is: UTC under `--time utc`, else the machine's time zone. */
  timeZone: () => 'local' | 'utc';
}

/** One flag of a command. */
export interface FlagSpec {
  /** As commander takes it: `--status <status>`, `--dry-run`, `-n, --limit <n>`, `--no-wait`. */
  flags: string;
  description: string;
  /** Turns the text into the value, or throws a one-line message (exit 2). */
  parse?: (value: string, previous: unknown, context: ParseContext) => unknown;
  default?: unknown;
  /** The flag must be given (commander's requiredOption). */
  required?: boolean;
  /** The only values it takes (listed by --help and completion). */
  choices?: readonly string[];
  /** Left out of --help and completion. */
  hidden?: boolean;
  /** What its value completes to, when neither its choices nor its name say (src/cli/completion-hints.ts). */
  completes?: ValueSource;
}

/** One positional argument. */
export interface ArgSpec {
  /** The name in the usage line and the key in `run`'s args (camelCase of it). */
  name: string;
  description: string;
  /** Optional (`[name]`); required by default (`<name>`). */
  optional?: boolean;
  /** Takes every remaining word (an array). */
  variadic?: boolean;
  choices?: readonly string[];
  /**
   * The id prefix of its kind (docs/service-contract.md, Identifiers) (`list_`, `ord_`): anything else is refused before
   * sending (exit 2), naming the command that lists them.
   */
  id?: { prefix: string; noun: string; list: string };
}

/** A command that runs something: `svc orders list`, `svc doctor`. */
export interface CommandDefinition<Args = Record<string, unknown>> {
  /** Its words below `svc`: ['orders', 'list']. */
  path: readonly string[];
  /** Where `svc --help` lists it; only for a command directly below `svc` (a noun's verbs follow the noun). */
  group?: HelpGroup;
  /** Its place within the group (smaller first), for a command directly below `svc`. */
  rank?: number;
  /** One line, lower case, no final stop: what it does. */
  description: string;
  /** A shorter line for the list of a parent's commands, when the description is long. */
  summary?: string;
  /** Paragraphs of --help after the flags and before the examples. */
  notes?: readonly string[];
  /** Command lines (with an optional `# comment`), each starting `svc `. */
  examples: readonly string[];
  args?: readonly ArgSpec[];
  flags?: readonly FlagSpec[];
  /** The global flags it takes beyond the always-accepted ones. */
  takes?: Takes;
  /** The field paths of what it prints, for --fields (checked before it runs, listed by --fields help). */
  fields?: () => Promise<readonly string[]>;
  /** Not listed by --help, completion or docs (`svc __complete`). */
  hidden?: boolean;
  /** Does the work once the flags are parsed and checked; takes only the dependencies it uses. */
  run: (args: Args, deps: Deps) => Promise<void>;
}

/** What help and completion read of a flag: its definition without the parser. */
export type FlagMetadata = Omit<FlagSpec, 'parse'>;

/**
 * A command as the manifest holds it (src/cli/manifest.ts, written from the definition by
 * scripts/manifest.mjs): everything but `run`, the parsers and the --fields loader, and
 * `load`, which imports the one file that defines it.
 */
export interface CommandEntry extends Omit<CommandDefinition<never>, 'run' | 'fields' | 'flags'> {
  flags?: readonly FlagMetadata[];
  /** It takes --fields (the definition's `fields` lists them). */
  fields?: boolean;
  load: () => Promise<CommandDefinition<never>>;
}

/** A word that groups commands and runs nothing itself: `svc orders`, `svc products images`. */
export interface NounDefinition {
  path: readonly string[];
  group?: HelpGroup;
  rank?: number;
  description: string;
}

/** Declares a command (typed args for its run). */
export function defineCommand<Args>(definition: CommandDefinition<Args>): CommandDefinition<Args> {
  return definition;
}

/** Declares a noun. */
export function defineNoun(definition: NounDefinition): NounDefinition {
  return definition;
}

/** The key of an argument in `run`'s args: `channel-account` → `channelAccount`. */
export function argKey(name: string): string {
  return name.replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase());
}
