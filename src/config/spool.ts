/** Standard input, or any stream of a file that is not a regular one, spooled to a temporary file. */
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
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
export async function spool(source: Readable, tempRoot: string = tmpdir()): Promise<Spooled> {
  const dir = mkdtempSync(join(tempRoot, 'svc-stdin-'));
  const remove = () => rmSync(dir, { recursive: true, force: true });
  const forget = whenExit(remove);
  const path = join(dir, 'stdin.csv');
  try {
    await pipeline(source, createWriteStream(path, { mode: 0o600 }));
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
