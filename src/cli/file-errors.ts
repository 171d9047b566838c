/** Local file-system failures (a directory given as a file, a config dir below a file…) as usage errors. */

const WORDS: Record<string, string> = {
  EISDIR: 'is a directory, not a file',
  ENOTDIR: 'runs through a file where a folder should be',
  EEXIST: 'is in the way (something already exists there)',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  ENOENT: 'does not exist',
  ENOSPC: 'no space left on the device',
  EROFS: 'is on a read-only file system',
  ENAMETOOLONG: 'name too long',
  ELOOP: 'too many symbolic links',
};

/** One line naming the path and what is wrong with it, when `error` is a local file error. */
export function localFileProblem(error: unknown): string | undefined {
  if (!(error instanceof Error)) return undefined;
  const { path, syscall, info } = error as NodeJS.ErrnoException & { info?: { code?: string } };
  // fs.rm and fs.cp throw Node's own SystemError (ERR_FS_EISDIR…), the system's code in `info`.
  const code = info?.code ?? (error as NodeJS.ErrnoException).code;
  if (code === undefined || !(code in WORDS) || typeof path !== 'string' || syscall === undefined)
    return undefined;
  return `${path} ${WORDS[code]} (${syscall}); fix the path (file arguments, --report, SVC_CONFIG_DIR) and run again`;
}
