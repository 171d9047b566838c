/** The root program: the global options (docs/guide.md, Global options) and every noun's commands. */
import { Command, InvalidArgumentError, Option } from 'commander';
import { connectionSettings } from '../client/connection-settings.js';
import type { Context } from '../cmdutil/context.js';
import { type CommandEntry, HELP_GROUPS, type HelpGroup } from '../cmdutil/define.js';
import { integerFlag, profileFlag, secondsFlag } from '../cmdutil/parse.js';
import { UsageError } from '../errors.js';
import { parseFieldList } from '../output/fields.js';
import { TIME_MODES } from '../output/time.js';
import { OUTPUT_FORMATS } from '../output/view.js';
import { addCommand, addNoun, prepareToRun } from './command-builder.js';
import { checkGlobalFlags, scopeOf } from './global-flags.js';
import { GLOBAL_OPTIONS_HELP, pointToVerbs, ROOT_HELP_FOOTER } from './help-layout.js';
import { COMMAND_WORDS, NOUNS } from './manifest.js';
import { commandWords, rememberWhereUsageErrorsArise } from './usage-errors.js';
import { useBaselineWasmTier } from './v8-flags.js';

const SETUP: HelpGroup = 'Setup';

/** How a run goes beyond the command line. */
export interface ProgramOptions {
  /** Called once the command line is parsed, before the command it names runs; may throw to stop it. */
  beforeRun?: () => void;
  /**
   * Only help is asked for (dist/help.cjs): no definition is loaded before the command line is
   * parsed, so a command's flags take their values unparsed (help prints them, nothing runs).
   */
  helpOnly?: boolean;
  /**
   * The run is the process's own (bin/svc), not one a host makes in-process (the tests): it may
   * set the process's V8 flags (src/cli/v8-flags.ts); a host keeps its own.
   */
  ownsProcess?: boolean;
}

/**
 * Builds the command tree from the manifest; nothing heavy is imported until a command runs.
 * Given the command line's arguments, it registers only the commands of the word they name
 * (`orders`, when they name one); without them, the whole tree. Of the commands, only the one
 * the command line runs has its definition loaded: just before commander parses its flags.
 */
export async function buildProgram(
  ctx: Context,
  args?: readonly string[],
  options: ProgramOptions = {},
): Promise<Command> {
  ctx.useCommandTree(() => describeWholeTree(ctx));
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
    .option('-L, --limit <n>', 'at most N items in all (default 25, one page)', integerFlag('--limit', 1))
    .option(
      '--fields <list>',
      'columns for table, csv and tsv; fields kept in json and ndjson (--fields help lists them)',
      flagParser(parseFieldList),
    )
    .option('--query <expr>', 'JMESPath over the whole result (every page of a list), e.g. "[].id"')
    .option('--no-headers', 'no header line in table, csv and tsv')
    .option(
      '--excel',
      "csv for spreadsheets: a UTF-8 BOM, and cells that start with =, +, -, @, tab or CR prefixed with '",
    )
    .option(
      '--decimal-comma',
      'on output (csv, --excel): cells separated by ";" and decimals written with ",", as a comma-decimal Excel opens them',
    )
    .addOption(
      new Option(
        '--time <mode>',
        'how tables show times (default: relative); utc also makes today and yesterday in time arguments UTC midnight',
      ).choices(TIME_MODES),
    )
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
    options.beforeRun?.();
    if (options.ownsProcess) await useBaselineWasmTier(action.parent?.name() === 'emulator');
    refuseJq(action);
    const globals = action.optsWithGlobals();
    // The environment's part of the connection settings is read with the flags, by commands that connect.
    const connects = scopeOf(action)?.offline !== true;
    ctx.useGlobals(globals, connects ? connectionSettings(globals, ctx.env) : undefined);
    await checkGlobalFlags(ctx, program, action);
  });

  const named = args ? nounNamed(program, args) : undefined;
  const commands = commandsFor(named);
  for (const entry of childrenOf([], commands)) {
    if (named && entry.name !== named) continue;
    // commander files the commands added after commandsGroup() under that heading.
    program.commandsGroup(`${entry.group}:`);
    entry.add(program, ctx);
  }
  // Last, so that subcommands keep their own `help` (they would inherit this one and its group).
  program.commandsGroup(`${SETUP}:`).helpCommand('help [command]', 'show help for a command');
  program.addHelpText('after', ROOT_HELP_FOOTER);
  for (const noun of program.commands) pointToVerbs(noun);
  if (!options.helpOnly) loadBeforeParsing(program);
  rememberWhereUsageErrorsArise(program, args);
  return program;
}

/**
 * Every command, described for completion and the command reference, whatever part of the
 * tree this run registered: built again whole, and only when a run asks.
 */
async function describeWholeTree(ctx: Context) {
  const { describeProgram } = await import('./describe-program.js');
  return describeProgram(await buildProgram(ctx));
}

/** The manifest's entries of the commands under `word` (`orders`: orders list, get, fulfill), or of every command. */
export function commandsFor(word?: string): readonly CommandEntry[] {
  if (word === undefined) return Object.values(COMMAND_WORDS).flatMap((entries) => entries());
  return Object.hasOwn(COMMAND_WORDS, word) ? COMMAND_WORDS[word]() : [];
}

/** Every command with subcommands loads the definition of the one it hands the command line to, before that parses it. */
function loadBeforeParsing(command: Command): void {
  if (command.commands.length === 0) return;
  command.hook('preSubcommand', (_parent, sub) => prepareToRun(sub));
  for (const sub of command.commands) loadBeforeParsing(sub);
}

/** A noun or command of the manifest directly below a noun (or `svc`), ready to add. */
interface Child {
  name: string;
  group: HelpGroup;
  rank: number;
  add: (parent: Command, ctx: Context) => void;
}

/**
 * The nouns and commands directly below the noun at `path` (`[]`: below `svc`), in the order
 * help lists them: below `svc` by group, then rank; below a noun by rank, then name.
 */
function childrenOf(path: readonly string[], commands: readonly CommandEntry[]): Child[] {
  const below = <T extends { path: readonly string[] }>(list: readonly T[]) =>
    list.filter(
      (item) =>
        item.path.length === path.length + 1 && path.every((word, index) => item.path[index] === word),
    );
  const children: Child[] = [
    ...below(NOUNS).map((noun) => ({
      name: noun.path.at(-1) ?? '',
      group: noun.group ?? SETUP,
      rank: noun.rank ?? 0,
      add: (parent: Command, ctx: Context) => {
        const added = addNoun(parent, noun);
        for (const child of childrenOf(noun.path, commands)) child.add(added, ctx);
      },
    })),
    ...below(commands).map((command) => ({
      name: command.path.at(-1) ?? '',
      group: command.group ?? SETUP,
      rank: command.rank ?? 0,
      add: (parent: Command, ctx: Context) => void addCommand(parent, command, ctx),
    })),
  ];
  const groupIndex = (child: Child) => (path.length === 0 ? HELP_GROUPS.indexOf(child.group) : 0);
  return children.sort(
    (a, b) => groupIndex(a) - groupIndex(b) || a.rank - b.rank || byCodeUnits(a.name, b.name),
  );
}

/** Orders plain ASCII names as localeCompare would, without loading ICU's collator (5 ms at start-up). */
function byCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
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
    return isFirstWord(arg) ? arg : undefined;
  }
  return undefined;
}

/** Whether `word` is a noun or command directly below `svc`. */
function isFirstWord(word: string): boolean {
  return Object.hasOwn(COMMAND_WORDS, word);
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
