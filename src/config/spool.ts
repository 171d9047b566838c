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

/**
 * Copies `source` (standard input, a pipe, a FIFO) to a private temporary file, so it can be
 * checked whole and read again, and returns its path. The file goes when the process exits:
 * what must outlive the run (an interrupted push) keeps its own copy.
 */
export async function spool(source: Readable): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-stdin-'));
  whenExit(() => rmSync(dir, { recursive: true, force: true }));
  const path = join(dir, 'stdin.csv');
  await pipeline(source, createWriteStream(path, { mode: 0o600 }));
  return path;
}
