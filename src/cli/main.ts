/** Entry point: builds the context and program, runs one command, returns the exit code. */
import { setFlagsFromString } from 'node:v8';
import { CommanderError } from 'commander';
import { Context, STOP_GRACE_MS } from '../cmdutil/context.js';
import type { KeyringBackend } from '../config/keyring.js';
import { DifferencesFound, Interrupted } from '../errors.js';
import { type IO, processIO } from '../output/io.js';
import { describeError, EXIT, errorJson, exitCodeFor } from './exit.js';
import { buildProgram } from './program.js';

// undici parses HTTP with llhttp compiled to WebAssembly at the first connection. V8's
// optimising tier for that module costs about 35 MB of peak memory and 100 ms or more, more
// than a CLI's whole crawl gains from it (bench/memory.mjs); the baseline tier is plenty.
// The flag is read when a module compiles, so setting it as the CLI starts suffices; it is
// the CLI's choice, so a program that imports the library or the emulator keeps its own.
setFlagsFromString('--liftoff-only');

/** Lets tests run the CLI in-process with their own streams, environment and clock. */
export interface MainDependencies {
  io?: IO;
  env?: NodeJS.ProcessEnv;
  now?: () => number;
  /** The keyring keys are kept in (default: the OS keyring). */
  keyring?: KeyringBackend;
}

/**
 * How long a command may take to wind down after SIGINT or SIGTERM before the process exits
 * anyway: the requests' own grace (STOP_GRACE_MS), then time to journal and print the summary.
 */
const SIGNAL_GRACE_MS = STOP_GRACE_MS + 3000;

/** Runs `svc` with `argv` (as process.argv: node, script, args…) and returns the exit code. */
export async function main(argv: string[], deps: MainDependencies = {}): Promise<number> {
  const env = deps.env ?? process.env;
  const ctx = new Context(deps.io ?? processIO(env), env, deps.now, deps.keyring);
  ctx.args = argv.slice(2);
  const program = buildProgram(ctx, ctx.args);
  const removeSignalHandlers = deps.io ? () => {} : installSignalHandlers(ctx);
  try {
    await program.parseAsync(argv);
    return EXIT.ok;
  } catch (error) {
    return report(ctx, error);
  } finally {
    removeSignalHandlers();
    await ctx.close();
  }
}

function report(ctx: Context, error: unknown): number {
  if (error instanceof CommanderError) {
    // commander printed its own message already (help, version, or a usage error)
    if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version') return EXIT.ok;
    if (error.code === 'commander.help') return EXIT.ok;
    return EXIT.usage;
  }
  const messages = ctx.messages;
  // Differences found on request are an answer, printed already: only the exit code says it.
  if (error instanceof DifferencesFound) return exitCodeFor(error);
  if (ctx.wantsJson) messages.json(errorJson(error));
  // A stop the user asked for is not a failure: said plainly, not as an error.
  if (error instanceof Interrupted) messages.info(describeError(error, ctx.now()));
  else messages.error(describeError(error, ctx.now()));
  const details = (error as { details?: unknown }).details;
  if (Array.isArray(details)) for (const line of details) messages.detail(String(line));
  if (ctx.globals.debug && error instanceof Error && error.stack) messages.debug(error.stack);
  return exitCodeFor(error);
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
