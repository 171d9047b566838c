import type { Readable, Writable } from 'node:stream';

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
}

/** The real process streams. */
export function processIO(env: NodeJS.ProcessEnv = process.env): IO {
  // `svc orders list --all | head`: a closed pipe ends the run quietly, as it does for cat.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(0);
    throw error;
  });
  // stderr carries only progress and messages: a reader that went away must not fail the
  // work itself (a push that finished is still exit 0); the lines are simply lost.
  process.stderr.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
  });
  const stdoutIsTTY = Boolean(process.stdout.isTTY);
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: process.stdin,
    stdoutIsTTY,
    stderrIsTTY: Boolean(process.stderr.isTTY),
    stdinIsTTY: Boolean(process.stdin.isTTY),
    color: stdoutIsTTY && env.NO_COLOR === undefined && env.TERM !== 'dumb',
  };
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
