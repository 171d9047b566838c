/** Standard input, or any stream of a file that is not a regular one, spooled to a temporary file. */
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { UsageError } from '../errors.js';
import whenExit from './exit-hooks.js';

/** The names of the process's own standard input, read as `-` (a socket there cannot be opened by name). */
const STDIN_NAMES = new Set(['-', '/dev/stdin', '/dev/fd/0', '/proc/self/fd/0']);

/** Whether `path` names standard input: `-`, or `/dev/stdin` and its aliases. */
export function isStdin(path: string): boolean {
  return STDIN_NAMES.has(path);
}

/** A spooled copy: where it is, and how to remove it. */
export interface Spooled {
  path: string;
  /** Removes the copy (again is harmless). */
  remove(): void;
}

/**
 * Copies `source` (standard input, a pipe, a FIFO) to a private temporary file under
 * `tempRoot` (the run's TMPDIR), so it can be checked whole and read again. The caller removes
 * it when the run ends (in-process runs never exit); the process's exit removes it otherwise.
 * What must outlive the run (an interrupted push) keeps its own copy.
 */
export async function spool(
  source: Readable,
  tempRoot: string = tmpdir(),
  limit: SpoolLimit = { bytes: DEFAULT_MAX_INPUT_BYTES },
): Promise<Spooled> {
  const dir = mkdtempSync(join(tempRoot, 'svc-stdin-'));
  const remove = () => rmSync(dir, { recursive: true, force: true });
  const forget = whenExit(remove);
  const path = join(dir, 'stdin.csv');
  let read = 0;
  // Bounded: a feed that never ends (`yes |`) fills no disk, it stops at the largest input svc reads.
  const bounded = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      read += chunk.length;
      if (read > limit.bytes) done(inputTooLarge(limit));
      else done(null, chunk);
    },
  });
  try {
    await pipeline(source, bounded, createWriteStream(path, { mode: 0o600 }));
  } catch (error) {
    remove();
    forget();
    throw error;
  }
  return {
    path,
    remove: () => {
      remove();
      forget();
    },
  };
}

/** The temp folder of a run's environment, as os.tmpdir() reads it from the process's. */
export function tempRootOf(env: Readonly<NodeJS.ProcessEnv>): string {
  const named = env.TMPDIR || env.TMP || env.TEMP;
  return named ? named.replace(/(.)\/+$/, '$1') : tmpdir();
}

/** The largest input svc reads by default: 2 GB. */
const DEFAULT_MAX_INPUT_BYTES = 2 * 1024 ** 3;

/** The bound of a spool, and the setting that set it, for the message. */
export interface SpoolLimit {
  bytes: number;
  setting?: string;
}

/** The bound SVC_MAX_INPUT_BYTES sets (whole bytes, at least 1), else the default; a UsageError for anything else. */
export function spoolLimit(env: NodeJS.ProcessEnv): SpoolLimit {
  const raw = env.SVC_MAX_INPUT_BYTES?.trim();
  if (!raw) return { bytes: DEFAULT_MAX_INPUT_BYTES };
  if (!/^\d+$/.test(raw) || Number(raw) < 1)
    throw new UsageError(`SVC_MAX_INPUT_BYTES must be a whole number of bytes, e.g. 1000000; got "${raw}"`);
  return { bytes: Number(raw), setting: 'SVC_MAX_INPUT_BYTES' };
}

/** A spooled input that passed the largest size svc reads (exit 2). */
function inputTooLarge(limit: SpoolLimit): UsageError {
  const how = limit.setting ? `${limit.setting}=${limit.bytes}` : `${limit.bytes} bytes, the default`;
  return new UsageError(
    `the input is larger than svc reads (${how}); nothing was sent: split it, or raise SVC_MAX_INPUT_BYTES`,
  );
}
