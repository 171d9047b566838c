/** The file a command reads: standard input spooled to a file, or a path checked to be a file. */
import { stat } from 'node:fs/promises';
import { FileError } from '../errors.js';
import type { Context } from './context.js';

/**
 * `-` is standard input, spooled so it can be checked whole and read again; any other path
 * must exist and not be a directory (either exits 2 naming it; a pipe such as <(cmd) is fine).
 */
export async function inputFile(ctx: Context, path: string): Promise<string> {
  if (path === '-') {
    const { spoolStdin } = await import('../config/spool.js');
    return spoolStdin(ctx.io.stdin);
  }
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
  return path;
}
