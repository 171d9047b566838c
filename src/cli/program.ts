/** The root program: global options of CLI.md and every noun's commands. */
import { Command, InvalidArgumentError, Option } from 'commander';
import { parseFieldList } from '../output/fields.js';
import { OUTPUT_FORMATS } from '../output/view.js';
import type { Context } from './context.js';
import { integerFlag } from './parse.js';

type Register = (program: Command, ctx: Context) => void;

/** One module of top-level commands, imported only when it is needed. */
interface NounModule {
  /** The top-level commands it registers (hidden ones included). */
  names: readonly string[];
  /** The heading `svc --help` lists them under. */
  group: string;
  load: () => Promise<Register>;
}

const CATALOG = 'Catalog:';
const INVENTORY = 'Inventory:';
const LISTINGS = 'Listings:';
const ORDERS = 'Orders:';
const EVENTS = 'Events:';
const SETUP = 'Setup:';

/**
 * Every top-level command, in the order `svc --help` lists them, grouped by what operators
 * do. A new noun goes here; its module is imported only when the command line names it
 * (or when the whole tree is needed: `svc --help`, completion), so start-up parses one
 * noun's code, not all of them.
 */
const NOUNS: readonly NounModule[] = [
  {
    names: ['products'],
    group: CATALOG,
    load: async () => (await import('../commands/products/index.js')).registerProducts,
  },
  {
    names: ['files'],
    group: CATALOG,
    load: async () => (await import('../commands/files/index.js')).registerFiles,
  },
  {
    names: ['channels'],
    group: CATALOG,
    load: async () => (await import('../commands/channels/index.js')).registerChannels,
  },
  {
    names: ['inventory'],
    group: INVENTORY,
    load: async () => (await import('../commands/inventory/index.js')).registerInventory,
  },
  {
    names: ['listings'],
    group: LISTINGS,
    load: async () => (await import('../commands/listings/index.js')).registerListings,
  },
  {
    names: ['operations'],
    group: LISTINGS,
    load: async () => (await import('../commands/operations/index.js')).registerOperations,
  },
  {
    names: ['orders'],
    group: ORDERS,
    load: async () => (await import('../commands/orders/index.js')).registerOrders,
  },
  {
    names: ['events'],
    group: EVENTS,
    load: async () => (await import('../commands/events/index.js')).registerEvents,
  },
  {
    names: ['webhooks'],
    group: EVENTS,
    load: async () => (await import('../commands/webhooks/index.js')).registerWebhooks,
  },
  {
    names: ['auth'],
    group: SETUP,
    load: async () => (await import('../commands/auth/index.js')).registerAuth,
  },
  {
    names: ['profiles'],
    group: SETUP,
    load: async () => (await import('../commands/profiles/index.js')).registerProfiles,
  },
  {
    names: ['status'],
    group: SETUP,
    load: async () => (await import('../commands/status/index.js')).registerStatus,
  },
  {
    names: ['health'],
    group: SETUP,
    load: async () => (await import('../commands/health/index.js')).registerHealth,
  },
  { names: ['api'], group: SETUP, load: async () => (await import('../commands/api/index.js')).registerApi },
  {
    names: ['emulator'],
    group: SETUP,
    load: async () => (await import('../commands/emulator/index.js')).registerEmulator,
  },
  {
    names: ['completion', '__complete'],
    group: SETUP,
    load: async () => (await import('../commands/completion/index.js')).registerCompletion,
  },
];

/**
 * Builds the command tree; nothing heavy is imported until a command runs. Given the
 * command line's arguments, it registers only the noun they name (when they name one);
 * without them, the whole tree.
 */
export async function buildProgram(ctx: Context, args?: readonly string[]): Promise<Command> {
  const program = new Command('svc')
    .description('Drive the Multichannel Commerce Service: catalog, listings, inventory, orders and events.')
    .version(__SVC_VERSION__, '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show help')
    .showSuggestionAfterError(true)
    .exitOverride()
    .configureOutput({
      writeOut: (text) => ctx.io.stdout.write(text),
      writeErr: (text) => ctx.io.stderr.write(text),
      // One line: commander's message, its suggestion, and where to look next.
      outputError: (text, write) => write(`${text.trim().split('\n').join(' ')}; see svc --help\n`),
    })
    .option('--profile <name>', 'profile to use')
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
      'columns for table, csv and tsv; fields kept in json and ndjson',
      flagParser(parseFieldList),
    )
    .option(
      '--max-retries <n>',
      'retries of one request (default 5; also SVC_MAX_RETRIES)',
      integerFlag('--max-retries', 0, 100),
    )
    .option('-y, --yes', 'answer yes to confirmations')
    .option('--no-input', 'never prompt (implied by CI=true or a non-terminal stdin)')
    .option('--debug', 'HTTP requests and answers to stderr, secrets redacted')
    .option('-q, --quiet', 'only results and errors');

  program.hook('preAction', (_root, action) => {
    ctx.globals = action.optsWithGlobals();
  });

  const named = args ? nounNamed(program, args) : undefined;
  const wanted = named ? NOUNS.filter((noun) => noun.names.includes(named)) : NOUNS;
  const registers = await Promise.all(wanted.map((noun) => noun.load()));
  wanted.forEach((noun, index) => {
    // commander files the commands added after commandsGroup() under that heading.
    program.commandsGroup(noun.group);
    registers[index]?.(program, ctx);
  });
  // Last, so that subcommands keep their own `help` (they would inherit this one and its group).
  program.commandsGroup(SETUP).helpCommand('help [command]', 'show help for a command');
  return program;
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
    return NOUNS.some((noun) => noun.names.includes(arg)) ? arg : undefined;
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
