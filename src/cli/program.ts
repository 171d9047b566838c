/** The root program: global options of CLI.md and every noun's commands. */
import { Command, InvalidArgumentError, Option } from 'commander';
import { registerApi } from '../commands/api/index.js';
import { registerAuth } from '../commands/auth/index.js';
import { registerChannels } from '../commands/channels/index.js';
import { registerEmulator } from '../commands/emulator/index.js';
import { registerEvents } from '../commands/events/index.js';
import { registerFiles } from '../commands/files/index.js';
import { registerHealth } from '../commands/health/index.js';
import { registerInventory } from '../commands/inventory/index.js';
import { registerListings } from '../commands/listings/index.js';
import { registerOperations } from '../commands/operations/index.js';
import { registerOrders } from '../commands/orders/index.js';
import { registerProducts } from '../commands/products/index.js';
import { registerProfiles } from '../commands/profiles/index.js';
import { registerStatus } from '../commands/status/index.js';
import { registerWebhooks } from '../commands/webhooks/index.js';
import { parseFieldList } from '../output/fields.js';
import { OUTPUT_FORMATS } from '../output/view.js';
import type { Context } from './context.js';
import { integerFlag } from './parse.js';

/** Builds the command tree; nothing heavy is imported until a command runs. */
export function buildProgram(ctx: Context): Command {
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

  registerProducts(program, ctx);
  registerFiles(program, ctx);
  registerChannels(program, ctx);
  registerListings(program, ctx);
  registerInventory(program, ctx);
  registerOrders(program, ctx);
  registerOperations(program, ctx);
  registerEvents(program, ctx);
  registerWebhooks(program, ctx);
  registerAuth(program, ctx);
  registerProfiles(program, ctx);
  registerStatus(program, ctx);
  registerHealth(program, ctx);
  registerApi(program, ctx);
  registerEmulator(program, ctx);
  return program;
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
