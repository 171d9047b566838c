/** The file a command reads: standard input spooled to a file, or a path checked to be a file. */
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { FileError, UsageError } from '../errors.js';
import type { Context } from './context.js';

/** Files the command writes, by flag (`--report`, `--backup`); unset ones are left out. */
export type OutputFiles = Record<string, string | undefined>;

/**
 * `-` is standard input, spooled so it can be checked whole and read again; any other path
 * must exist and not be a directory (either exits 2 naming it; a pipe such as <(cmd) is fine).
 * No file in `outputs` may be the input or another output: writing it would replace the
 * feed (or the undo file) the user has no other copy of.
 */
export async function inputFile(ctx: Context, path: string, outputs: OutputFiles = {}): Promise<string> {
  if (path !== '-') {
    let directory: boolean;
    try {
      directory = (await stat(path)).isDirectory();
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') throw new FileError(`no such file: ${path}`);
      if (code === 'EACCES') throw new FileError(`${path} cannot be read (permission denied)`);
      throw error;
    }
    if (directory) throw new FileError(`${path} is a directory; give the file inside it to read`);
  }
  await checkOutputs(path, outputs);
  if (path !== '-') return path;
  const { spoolStdin } = await import('../config/spool.js');
  return spoolStdin(ctx.io.stdin);
}

async function checkOutputs(input: string, outputs: OutputFiles): Promise<void> {
  const named = Object.entries(outputs).filter((entry): entry is [string, string] => Boolean(entry[1]));
  for (const [flag, output] of named) {
    if (input !== '-' && (await sameFile(input, output)))
      throw new UsageError(
        `${flag} ${output} is the file being read; writing it would replace it: give another path`,
      );
  }
  for (const [index, [flag, output]] of named.entries()) {
    for (const [otherFlag, other] of named.slice(index + 1)) {
      if (await sameFile(output, other))
        throw new UsageError(`${flag} and ${otherFlag} both name ${other}; give each its own file`);
    }
  }
}

/** The same file: one inode when both exist, else the same absolute path. */
async function sameFile(a: string, b: string): Promise<boolean> {
  const [first, second] = await Promise.all([a, b].map((path) => stat(path).catch(() => undefined)));
  if (first && second) return first.dev === second.dev && first.ino === second.ino;
  return resolve(a) === resolve(b);
}
