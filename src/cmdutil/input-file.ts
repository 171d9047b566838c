/**
 * The file a command reads: a regular file as it is; standard input and every other readable
 * file (a pipe, `/dev/stdin`, `<(cmd)`, a FIFO) spooled to a private file first, since the
 * checks read a file whole, at offsets and more than once, which none of those allow.
 */
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { isStdin } from '../config/spool.js';
import { FileError, UsageError } from '../errors.js';
import type { Deps } from './deps.js';

/** Files the command writes, by flag (`--report`, `--backup`); unset ones are left out. */
export type OutputFiles = Record<string, string | undefined>;

/** What reading an input file needs of a run: its stdin, its TMPDIR, and its end (to remove a spool). */
export type InputDeps = Pick<Deps, 'io' | 'env' | 'atEnd'>;

/**
 * The path to read `path` from: a regular file as it is; standard input and any other
 * non-regular file spooled (exits 2 naming a path that does not exist, cannot be read or is a
 * directory). No file in `outputs` may be the input or another output: writing it would
 * replace the feed (or the undo file) the user has no other copy of.
 */
export async function inputFile(ctx: InputDeps, path: string, outputs: OutputFiles = {}): Promise<string> {
  const regular = isStdin(path) ? false : await isRegularFile(path);
  await checkOutputs(path, outputs, regular);
  if (regular) return path;
  const { spool, spoolLimit, tempRootOf } = await import('../config/spool.js');
  const limit = spoolLimit(ctx.env);
  const { createReadStream } = await import('node:fs');
  const source = isStdin(path) ? ctx.io.stdin : createReadStream(path);
  const spooled = await spool(source, tempRootOf(ctx.env), limit);
  // The copy goes with the run, in-process as well, where no process exit would take it.
  ctx.atEnd(spooled.remove);
  return spooled.path;
}

/** True for a regular file, false for any other readable one; a FileError for none at all. */
async function isRegularFile(path: string): Promise<boolean> {
  let found: Awaited<ReturnType<typeof stat>>;
  try {
    found = await stat(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') throw new FileError(`no such file: ${path}`);
    if (code === 'EACCES') throw new FileError(`${path} cannot be read (permission denied)`);
    throw error;
  }
  if (found.isDirectory()) throw new FileError(`${path} is a directory; give the file inside it to read`);
  return found.isFile();
}

async function checkOutputs(input: string, outputs: OutputFiles, regular: boolean): Promise<void> {
  const named = Object.entries(outputs).filter((entry): entry is [string, string] => Boolean(entry[1]));
  for (const [flag, output] of named) {
    if (regular && (await sameFile(input, output)))
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
