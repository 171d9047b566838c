/**
 * Making a directory svc keeps files in, which either succeeds or fails at once naming the
 * directory and why (exit 2). Node's own recursive mkdir loops for ever, at full CPU and deaf
 * to signals, where a parent can never be made: a working directory that was deleted under a
 * relative path, or a folder of /proc.
 */
import { mkdirSync, statSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import { FileError } from '../errors.js';

/** `path` made absolute against the working directory; a FileError naming it when that directory is gone. */
export function absolutePath(path: string, what: string): string {
  if (isAbsolute(path)) return path;
  try {
    return resolve(path);
  } catch {
    throw new FileError(
      `cannot use ${what} ${path}: it is relative and the working directory no longer exists; give an absolute path or run from an existing directory`,
    );
  }
}

/**
 * Makes `dir` and any missing parents (each with `mode`), or throws a FileError naming `dir`
 * and the reason. Each parent is tried at most once, so it ends after as many steps as `dir`
 * has parts.
 */
export function makeDirectory(dir: string, mode = 0o700): void {
  const absolute = absolutePath(dir, 'the directory');
  const missing: string[] = [];
  for (let at = absolute; ; at = dirname(at)) {
    const made = tryMake(at, mode);
    if (made === 'made' || made === 'exists') break;
    if (made !== 'ENOENT' || dirname(at) === at) throw refused(dir, made);
    missing.push(at);
  }
  for (const at of missing.reverse()) {
    const made = tryMake(at, mode);
    if (made !== 'made' && made !== 'exists') throw refused(dir, made);
  }
}

/** One mkdir: made, there already (as a directory), or the error code that refused it. */
function tryMake(path: string, mode: number): 'made' | 'exists' | string {
  try {
    mkdirSync(path, { mode });
    return 'made';
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    if (code !== 'EEXIST') return code;
    try {
      return statSync(path).isDirectory() ? 'exists' : 'ENOTDIR';
    } catch (statError) {
      return (statError as NodeJS.ErrnoException).code ?? 'EEXIST';
    }
  }
}

const WHY: Record<string, string> = {
  ENOENT: 'a parent cannot hold it',
  ENOTDIR: 'a file is in the way of it or of a parent',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EROFS: 'the file system is read-only',
  ENOSPC: 'no space left on the device',
  ENAMETOOLONG: 'the name is too long',
  ELOOP: 'too many symbolic links',
};

function refused(dir: string, code: string): FileError {
  const why = WHY[code] ?? code;
  return new FileError(
    `cannot create the directory ${dir}: ${why}; fix the path (SVC_CONFIG_DIR) and run again`,
  );
}
