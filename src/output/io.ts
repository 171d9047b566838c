import type { Readable, Writable } from 'node:stream';
import { isatty } from 'node:tty';
import { writeFailureReason } from '../errors.js';

/** The streams a command may touch, and what they are connected to. */
export interface IO {
  stdout: Writable;
  stderr: Writable;
  stdin: Readable;
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  stdinIsTTY: boolean;
  /** Colour on stderr/stdout tables: a terminal, and neither NO_COLOR nor a dumb terminal. */
  color: boolean;
  /** Columns tables fit in: COLUMNS when set, else the terminal's width; unknown when piped. */
  columns?: number;
}

/** The real process streams. */
export function processIO(env: NodeJS.ProcessEnv = process.env): IO {
  // `svc orders list --all | head`: a closed pipe ends the run quietly, as it does for cat.
  // Any other failure (`> /dev/full`, a disk that filled) loses results: one line, exit 1.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(0);
    try {
      process.stderr.write(`error: cannot write standard output: ${writeFailureReason(error)}\n`);
    } finally {
      process.exit(1);
    }
  });
  // stderr carries only progress and messages: a reader that went away, or a full disk under
  // a log file, must not fail the work itself (a push that finished is still exit 0); the lines are simply lost.
  process.stderr.on('error', () => {});
  const stdoutIsTTY = Boolean(process.stdout.isTTY);
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    // Made when first read: process.stdin loads file or socket streams most commands never use.
    get stdin() {
      return process.stdin;
    },
    stdoutIsTTY,
    stderrIsTTY: Boolean(process.stderr.isTTY),
    stdinIsTTY: isatty(0),
    color: stdoutIsTTY && env.NO_COLOR === undefined && env.TERM !== 'dumb',
    columns: terminalColumns(env.COLUMNS, stdoutIsTTY ? process.stdout.columns : undefined),
  };
}

/** COLUMNS when it is a positive whole number, else the terminal's own width (0 counts as unknown). */
export function terminalColumns(
  fromEnv: string | undefined,
  fromTerminal: number | undefined,
): number | undefined {
  if (fromEnv !== undefined && /^\d+$/.test(fromEnv.trim()) && Number(fromEnv) > 0) return Number(fromEnv);
  return fromTerminal !== undefined && fromTerminal > 0 ? fromTerminal : undefined;
}

/**
 * Writes `text` and resolves once the stream took it, waiting for 'drain' when its buffer
 * is full, so that streaming a large crawl to a slow pipe keeps memory flat.
 */
export function writeText(stream: Writable, text: string): Promise<void> | void {
  if (stream.write(text)) return;
  return new Promise((resolve, reject) => {
    const onDrain = () => {
      stream.off('error', onError);
      resolve();
    };
    const onError = (err: Error) => {
      stream.off('drain', onDrain);
      reject(err);
    };
    stream.once('drain', onDrain);
    stream.once('error', onError);
  });
}
