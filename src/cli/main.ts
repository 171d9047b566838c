/** Entry point: builds the context and program, runs one command, returns the exit code. */
import { type Command, CommanderError } from 'commander';
import { Context, STOP_GRACE_MS } from '../cmdutil/context.js';
import type { KeyringBackend } from '../config/keyring.js';
import { adviseOnRefusedKey } from '../core/auth/advice.js';
import { DifferencesFound, Interrupted, UsageError } from '../errors.js';
import { type IO, processIO } from '../output/io.js';
import type { ProgressClock } from '../output/progress.js';
import { machineFormatChosen } from '../output/view.js';
import { errorJson } from './error-json.js';
import { describeError, EXIT, exitCodeFor, oneLine } from './exit.js';
import { HELP_TOPICS, helpTopic, topicText } from './help-topics.js';
import { NOUNS } from './manifest.js';
import { buildProgram } from './program.js';
import { helpCommandFor } from './usage-errors.js';
import { refuseJsonFieldList, usageMessage } from './usage-words.js';

/** Lets tests run the CLI in-process with their own streams, environment and clock. */
export interface MainDependencies {
  io?: IO;
  env?: NodeJS.ProcessEnv;
  now?: () => number;
  /** The keyring keys are kept in (default: the OS keyring). */
  keyring?: KeyringBackend;
  /** The clock progress reads and ticks on (default: the system's), so a test needs no 30-s wait. */
  progressClock?: ProgressClock;
}

/**
 * How long a command may take to wind down after SIGINT or SIGTERM before the process exits
 * anyway: the requests' own grace (STOP_GRACE_MS), then time to journal and print the summary.
 */
const SIGNAL_GRACE_MS = STOP_GRACE_MS + 3000;

/** Runs `svc` with `argv` (as process.argv: node, script, args…) and returns the exit code. */
export async function main(argv: string[], deps: MainDependencies = {}): Promise<number> {
  return (await run(argv, deps, false)) ?? EXIT.ok;
}

/**
 * Runs a command line that asks for help (bin/svc's guess: --help, -h, `svc help …` or no words) as
 * `main` does, and returns the exit code; or, having printed nothing, undefined when it asks
 * for a command to run after all, which `main` is then given. The entry of dist/help.cjs,
 * which carries the command definitions and not what they run (scripts/bundle.mjs).
 */
export function mainForHelp(argv: string[], deps: MainDependencies = {}): Promise<number | undefined> {
  return run(argv, deps, true);
}

/** Raised before a command runs in a run that only prints help (mainForHelp). */
class RunsACommand extends Error {}

async function run(argv: string[], deps: MainDependencies, helpOnly: boolean): Promise<number | undefined> {
  const env = deps.env ?? process.env;
  const ctx = new Context(deps.io ?? processIO(env), env, deps.now, deps.keyring, deps.progressClock);
  ctx.argv = helpAsFlag(argv.slice(2));
  const beforeRun = helpOnly
    ? () => {
        throw new RunsACommand();
      }
    : undefined;
  // Given streams, the run is a host's (the tests): the process, its signals and V8 flags, stay the host's.
  const ownsProcess = deps.io === undefined;
  const program = await buildProgram(ctx, ctx.argv, { beforeRun, helpOnly, ownsProcess });
  const removeSignalHandlers = ownsProcess ? installSignalHandlers(ctx) : () => {};
  try {
    const topic = argv[2] === 'help' && argv.length === 4 ? helpTopic(argv[3]) : undefined;
    if (topic) {
      ctx.io.stdout.write(topicText(topic));
      return EXIT.ok;
    }
    if (argv[2] === 'help') checkHelpTopic(program, argv.slice(3));
    refuseJsonFieldList(ctx.argv);
    await program.parseAsync([...argv.slice(0, 2), ...ctx.argv]);
    return EXIT.ok;
  } catch (error) {
    if (error instanceof RunsACommand || isOutsideHelp(error)) return undefined;
    adviseOnRefusedKey(error, env);
    if (error instanceof UsageError && error.problems && ctx.io.gitHubActions)
      (await import('../cmdutil/ci-report.js')).refusedInputToGitHub(ctx, error);
    return report(ctx, error, { ...formatInArgs(ctx.argv), ...program.opts() });
  } finally {
    removeSignalHandlers();
    await ctx.close();
  }
}

/** What dist/help.cjs raises where a run reaches for code it does not carry (scripts/bundle.mjs). */
function isOutsideHelp(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === 'SVC_OUTSIDE_HELP';
}

function report(ctx: Context, error: unknown, rootOptions: { json?: boolean; output?: string }): number {
  // A script that chose a machine format reads the error as one JSON line (docs/guide.md, Errors for scripts).
  // Before the command runs (a usage error of commander's), only the root's options are known.
  const machine = ctx.io.machineFormatChosen || machineFormatChosen(rootOptions);
  const messages = ctx.io.messages;
  // The line for people first; with a machine format, the JSON line last, where a script reads it.
  if (error instanceof CommanderError) {
    // Help and version were printed already by commander.
    if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version') return EXIT.ok;
    if (error.code === 'commander.help') return EXIT.ok;
    // commander's message, its suggestion, and the help of the command it arose in.
    const message = `${oneLine(usageMessage(error, ctx.argv))}; see ${helpCommandFor(error)}`;
    messages.error(message);
    if (machine) messages.json({ error: { code: 'usage', message, exit_code: EXIT.usage } });
    return EXIT.usage;
  }
  // Differences found on request are an answer, printed already: only the exit code says it.
  if (error instanceof DifferencesFound) return exitCodeFor(error);
  // A stop the user asked for is not a failure: said plainly, not as an error.
  if (error instanceof Interrupted) messages.info(describeError(error, ctx.now()));
  else messages.error(describeError(error, ctx.now()));
  const details = (error as { details?: unknown }).details;
  if (Array.isArray(details)) for (const line of details) messages.detail(String(line));
  if (ctx.globals.debug && error instanceof Error && error.stack) messages.debug(error.stack);
  if (machine) messages.json(errorJson(error, ctx.now()));
  return exitCodeFor(error);
}

/**
 * The format the command line asks for, read from the words themselves: a usage error can stop
 * commander before it reached `-o json`, and the error must still come out as JSON.
 */
export function formatInArgs(args: readonly string[]): { json?: boolean; output?: string } {
  const found: { json?: boolean; output?: string } = {};
  for (const [index, arg] of args.entries()) {
    if (arg === '--') break;
    if (arg === '--json') found.json = true;
    else if (arg === '-o' || arg === '--output') found.output = args[index + 1];
    else if (arg.startsWith('--output=')) found.output = arg.slice('--output='.length);
  }
  return found;
}

/**
 * `svc help orders list` is `svc orders list --help` (and `svc help orders`, `svc orders --help`):
 * commander's own help command reads one word only, and would show the help of `orders`.
 */
export function helpAsFlag(args: readonly string[]): string[] {
  // Bare `svc` and a bare noun (`svc orders`) answer as --help does: stdout, exit 0.
  if (args.length === 0 || isNounPath(args)) return [...args, '--help'];
  if (args[0] !== 'help' || args.length < 2) return [...args];
  return [...args.slice(1), '--help'];
}

/** Whether `args` are exactly the words of a noun (`orders`, `products images`). */
function isNounPath(args: readonly string[]): boolean {
  return NOUNS.some(
    (noun) => noun.path.length === args.length && noun.path.every((word, i) => args[i] === word),
  );
}

/**
 * The words after `svc help` must name a command: commander would show the nearest help it
 * finds (the root's, or the noun's) and exit 0, so a typo would read as an answer.
 */
function checkHelpTopic(program: Command, words: readonly string[]): void {
  let command = program;
  const path: string[] = [];
  for (const word of words) {
    // `svc help help` asks about the help command itself, which commander answers.
    if (word.startsWith('-') || word === 'help') break;
    path.push(word);
    const next = command.commands.find((sub) => sub.name() === word || sub.aliases().includes(word));
    if (!next) {
      const known = path.slice(0, -1).join(' ');
      const topics =
        path.length === 1 ? ` (help topics: ${HELP_TOPICS.map((topic) => topic.name).join(', ')})` : '';
      throw new UsageError(
        `unknown command '${path.join(' ')}'${topics}; see svc ${known ? `${known} ` : ''}--help`,
      );
    }
    command = next;
  }
}

function installSignalHandlers(ctx: Context): () => void {
  const handlers = (['SIGINT', 'SIGTERM'] as const).map((signal) => {
    const handler = () => {
      const code = signal === 'SIGINT' ? EXIT.sigint : EXIT.sigterm;
      if (ctx.signal.aborted) process.exit(code);
      ctx.interrupt(new Interrupted(signal));
      // Work that listens to ctx.signal saves its state and returns; anything else is cut short.
      setTimeout(() => process.exit(code), SIGNAL_GRACE_MS).unref();
    };
    process.on(signal, handler);
    return [signal, handler] as const;
  });
  return () => {
    for (const [signal, handler] of handlers) process.off(signal, handler);
  };
}
