/** Standard input spooled to a temporary file, so it can be checked whole and read again. */
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import whenExit from './exit-hooks.js';

/**
 * Copies `stdin` to a private temporary file and returns its path. The file goes when the
 * process exits: what must outlive the run (an interrupted push) keeps its own copy.
 */
export async function spoolStdin(stdin: Readable): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-stdin-'));
  whenExit(() => rmSync(dir, { recursive: true, force: true }));
  const path = join(dir, 'stdin.csv');
  await pipeline(stdin, createWriteStream(path, { mode: 0o600 }));
  return path;
}
