/** The root program: the global options (README, Global options) and every noun's commands. */
import { Command, type CommanderError, Help, InvalidArgumentError, Option } from 'commander';
import { connectionSettings } from '../cmdutil/connection-settings.js';
import type { Context } from '../cmdutil/context.js';
import { HELP_GROUPS, type HelpGroup } from '../cmdutil/define.js';
import { integerFlag, profileFlag, secondsFlag } from '../cmdutil/parse.js';
import { registerApi } from '../commands/api/index.js';
import { registerAuth } from '../commands/auth/index.js';
import { registerChannels } from '../commands/channels/index.js';
import { registerCompletion } from '../commands/completion/index.js';
import { registerDoctor } from '../commands/doctor/index.js';
import { registerEmulator } from '../commands/emulator/index.js';
import { registerEvents } from '../commands/events/index.js';
import { registerFiles } from '../commands/files/index.js';
import { registerHealth } from '../commands/health/index.js';
import { registerListings } from '../commands/listings/index.js';
import { COMMANDS, NOUNS as DEFINED_NOUNS } from '../commands/manifest.js';
import { registerProducts } from '../commands/products/index.js';
import { registerProfiles } from '../commands/profiles/index.js';
import { registerStatus } from '../commands/status/index.js';
import { registerVersion } from '../commands/version/index.js';
import { registerWebhooks } from '../commands/webhooks/index.js';
import { UsageError } from '../errors.js';
import { parseFieldList } from '../output/fields.js';
import { TIME_MODES } from '../output/time.js';
import { OUTPUT_FORMATS } from '../output/view.js';
import { addCommand, addNoun } from './command-builder.js';
import { flagsFor, isScoped } from './command-scopes.js';
import { EXIT_MEANINGS } from './exit.js';
import { checkGlobalFlags, scopeOf } from './global-flags.js';

/** Registers a noun's commands; `wholeTree` builds every command (what completion describes). */
type Register = (program: Command, ctx: Context, wholeTree: () => Command) => void;

/** One noun: the top-level commands a register function adds, and where `svc --help` lists them. */
interface Noun {
  /** The top-level commands it registers (hidden ones included). */
  names: readonly string[];
  /** The heading `svc --help` lists them under. */
  group: HelpGroup;
  register: Register;
}

const CATALOG = 'Catalog';
const LISTINGS = 'Listings';
const EVENTS = 'Events';
const SETUP = 'Setup';

/**
 * Every top-level command, in the order `svc --help` lists them, grouped by what operators
 * do; a new noun goes here. Only the noun the command line names is registered, so start-up
 * runs one noun's registration, not all of them (they are bundled statically all the same:
 * a chunk per noun would cost more in module loading than it saves in parsing).
 */
const NOUNS: readonly Noun[] = [
  { names: ['products'], group: CATALOG, register: registerProducts },
  { names: ['files'], group: CATALOG, register: registerFiles },
  { names: ['channels'], group: CATALOG, register: registerChannels },
  { names: ['listings'], group: LISTINGS, register: registerListings },
  { names: ['events'], group: EVENTS, register: registerEvents },
  { names: ['webhooks'], group: EVENTS, register: registerWebhooks },
  { names: ['auth'], group: SETUP, register: registerAuth },
  { names: ['profiles'], group: SETUP, register: registerProfiles },
  { names: ['doctor'], group: SETUP, register: registerDoctor },
  { names: ['status'], group: SETUP, register: registerStatus },
  { names: ['health'], group: SETUP, register: registerHealth },
  { names: ['version'], group: SETUP, register: registerVersion },
  { names: ['api'], group: SETUP, register: registerApi },
  { names: ['emulator'], group: SETUP, register: registerEmulator },
  { names: ['completion', '__complete', '__docs'], group: SETUP, register: registerCompletion },
];

/**
 * Builds the command tree; nothing heavy is imported until a command runs. Given the
 * command line's arguments, it registers only the noun they name (when they name one);
 * without them, the whole tree.
 */
export function buildProgram(ctx: Context, args?: readonly string[]): Command {
  const program = new Command('svc')
    .description('Drive the Multichannel Commerce Service: catalog, listings, inventory, orders and events.')
    .version(__SVC_VERSION__, '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show help')
    .showSuggestionAfterError(true)
    .exitOverride()
    .configureOutput({
      writeOut: (text) => ctx.io.stdout.write(text),
      writeErr: (text) => ctx.io.stderr.write(text),
      // A usage error is said once, by main()'s report: one line, then the JSON line for scripts.
      outputError: () => {},
    })
    .option('--profile <name>', 'profile to use', profileFlag)
    .option('--base-url <url>', 'service address (the part before /rest/v1)')
    .addOption(
      new Option(
        '-o, --output <format>',
        'table, json, ndjson, csv or tsv (default: table on a terminal, tsv when piped)',
      ).choices(OUTPUT_FORMATS),
    )
    .option('--json', 'same as -o json')
    .option('--all', 'follow next_cursor to the end')
    .option('--limit <n>', 'at most N items in all (default 25, one page)', integerFlag('--limit', 1))
    .option(
      '--fields <list>',
      'columns for table, csv and tsv; fields kept in json and ndjson (--fields help lists them)',
      flagParser(parseFieldList),
    )
    .option('--query <expr>', 'JMESPath over the whole result (every page of a list), e.g. "[].id"')
    .option('--no-headers', 'no header line in table, csv and tsv')
    .addOption(new Option('--time <mode>', 'how tables show times (default: relative)').choices(TIME_MODES))
    .option(
      '--max-retries <n>',
      'retries of one request (default 5; also SVC_MAX_RETRIES)',
      integerFlag('--max-retries', 0, 100),
    )
    .option(
      '--request-timeout <s>',
      'deadline of one HTTP request in seconds, connect to last byte (default 30, at most 86400; also SVC_REQUEST_TIMEOUT)',
      secondsFlag('--request-timeout'),
    )
    .option('-y, --yes', 'answer yes to confirmations')
    .option('--no-input', 'never prompt (implied by CI=true or a non-terminal stdin)')
    .option('--debug', 'HTTP requests and answers to stderr, secrets redacted')
    .option('-q, --quiet', 'only results and errors')
    // jq's flag, which gh users reach for: refused with a pointer to --query (see refuseJq).
    .addOption(new Option('--jq <expr>').hideHelp());

  program.configureHelp(GLOBAL_OPTIONS_HELP);
  program.hook('preAction', async (_root, action) => {
    refuseJq(action);
    const globals = action.optsWithGlobals();
    // The environment's part of the connection settings is read with the flags, by commands that connect.
    const connects = scopeOf(action)?.offline !== true;
    ctx.useGlobals(globals, connects ? connectionSettings(globals, ctx.env) : undefined);
    await checkGlobalFlags(ctx, program, action);
  });

  const named = args ? nounNamed(program, args) : undefined;
  for (const entry of topLevel()) {
    if (named && !entry.names.includes(named)) continue;
    // commander files the commands added after commandsGroup() under that heading.
    program.commandsGroup(`${entry.group}:`);
    entry.add(program, ctx);
  }
  // Last, so that subcommands keep their own `help` (they would inherit this one and its group).
  program.commandsGroup(`${SETUP}:`).helpCommand('help [command]', 'show help for a command');
  program.addHelpText('after', ROOT_HELP_FOOTER);
  for (const noun of program.commands) pointToVerbs(noun);
  rememberWhereUsageErrorsArise(program, args);
  return program;
}

/** One entry of `svc --help`: a noun or command directly below `svc`, with what lies below it. */
interface TopLevel {
  names: readonly string[];
  group: HelpGroup;
  rank: number;
  add: (program: Command, ctx: Context) => void;
}

/**
 * The commands directly below `svc` in the order `svc --help` lists them: by group, then rank.
 * Defined nouns and commands come from the manifest; the rest still register themselves.
 */
function topLevel(): TopLevel[] {
  const entries: TopLevel[] = NOUNS.map((noun, index) => ({
    names: noun.names,
    group: noun.group,
    // Its place among the legacy entries of its group, from 1 (as a definition's rank).
    rank: NOUNS.slice(0, index + 1).filter((other) => other.group === noun.group).length,
    add: (program: Command, ctx: Context) => noun.register(program, ctx, () => buildProgram(ctx)),
  }));
  for (const noun of DEFINED_NOUNS.filter((noun) => noun.path.length === 1)) {
    entries.push({
      names: noun.path,
      group: noun.group ?? SETUP,
      rank: noun.rank ?? 0,
      add: (program, ctx) => addBelow(addNoun(program, noun), noun.path, ctx),
    });
  }
  for (const command of COMMANDS.filter((command) => command.path.length === 1)) {
    entries.push({
      names: command.path,
      group: command.group ?? SETUP,
      rank: command.rank ?? 0,
      add: (program, ctx) => addCommand(program, command, ctx),
    });
  }
  const groupIndex = (group: HelpGroup) => HELP_GROUPS.indexOf(group);
  return entries.sort((a, b) => groupIndex(a.group) - groupIndex(b.group) || a.rank - b.rank);
}

/** Adds the nouns and commands below the noun at `path`, in rank order, then by name. */
function addBelow(parent: Command, path: readonly string[], ctx: Context): void {
  const below = <T extends { path: readonly string[] }>(list: readonly T[]) =>
    list.filter(
      (item) =>
        item.path.length === path.length + 1 && path.every((word, index) => item.path[index] === word),
    );
  const children = [
    ...below(DEFINED_NOUNS).map((noun) => ({
      rank: noun.rank ?? 0,
      name: noun.path.at(-1) ?? '',
      add: () => addBelow(addNoun(parent, noun), noun.path, ctx),
    })),
    ...below(COMMANDS).map((command) => ({
      rank: command.rank ?? 0,
      name: command.path.at(-1) ?? '',
      add: () => addCommand(parent, command, ctx),
    })),
  ];
  children.sort((a, b) => a.rank - b.rank || a.name.localeCompare(b.name));
  for (const child of children) child.add();
}

/** The command each usage error of commander's arose in, so that its line points to that command's help. */
const usageErrorOrigins = new WeakMap<CommanderError, string>();

/**
 * `svc inventory push --help`, for a usage error of commander's raised while parsing that
 * command (`svc` when unknown): where to look next, rather than the root's help.
 */
export function helpCommandFor(error: CommanderError): string {
  return `${usageErrorOrigins.get(error) ?? 'svc'} --help`;
}

function rememberWhereUsageErrorsArise(program: Command, args: readonly string[] = []): void {
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

function commandWords(command: Command): string {
  const path = [];
  for (let at: Command | null = command; at; at = at.parent) path.unshift(at.name());
  return path.join(' ');
}

/** `--jq` is jq's (and gh's) flag; svc filters with JMESPath under another name, which the refusal gives. */
function refuseJq(action: Command): void {
  const jq = action.optsWithGlobals().jq as string | undefined;
  if (jq === undefined) return;
  throw new UsageError(
    `--jq is not a flag of svc: it filters with JMESPath, --query EXPR (jq's '.[].id' is --query '[].id'); see ${commandWords(action)} --help`,
  );
}

/**
 * A command's help ends with the global flags it takes, under "Global options", as `gh`
 * shows inherited flags; a noun's help (it runs nothing) and the root's list none.
 */
const GLOBAL_OPTIONS_HELP: Partial<Help> = {
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
      });
  },
  formatItemList(heading: string, items: string[], helper: Help): string[] {
    const title = heading === 'Global Options:' ? 'Global options:' : heading;
    return Help.prototype.formatItemList.call(this, title, items, helper);
  },
};

function rootOf(command: Command): Command {
  let root = command;
  while (root.parent) root = root.parent;
  return root;
}

const ROOT_HELP_FOOTER = [
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
].join('\n');

/** A command with subcommands says where its examples are: in each subcommand's help. */
function pointToVerbs(command: Command): void {
  if (command.commands.length === 0) return;
  command.addHelpText(
    'after',
    `\nRun \`${commandWords(command)} COMMAND --help\` for a command's flags and examples.`,
  );
  for (const sub of command.commands) pointToVerbs(sub);
}

/**
 * The noun the command line names: its first word that is neither a flag nor a global
 * flag's value, when that word is one of ours. Anything else (`svc --help`, `svc help
 * orders`, a typo) gets the whole tree, so help and suggestions see every command.
 */
export function nounNamed(program: Command, args: readonly string[]): string | undefined {
  const takesValue = new Set(
    program.options
      .filter((option) => option.required || option.optional)
      .flatMap((option) => [option.short, option.long]),
  );
  for (let index = 0; index < args.length; index++) {
    const arg = args[index] ?? '';
    if (arg === '--') return undefined;
    if (arg.startsWith('-')) {
      if (takesValue.has(arg)) index++;
      continue;
    }
    return topLevel().some((entry) => entry.names.includes(arg)) ? arg : undefined;
  }
  return undefined;
}

/** Adapts a parser that throws plain errors to commander's invalid-argument error. */
function flagParser<T>(parse: (raw: string) => T) {
  return (raw: string): T => {
    try {
      return parse(raw);
    } catch (error) {
      throw new InvalidArgumentError((error as Error).message);
    }
  };
}
