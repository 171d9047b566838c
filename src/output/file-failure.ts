/**
 * The one line for a file svc promised to write that could not be written whole: which file,
 * that it is incomplete, why (in words, not an errno), and what to do next.
 */

const REASONS: Record<string, string> = {
  ENOSPC: 'no space left on the device',
  EDQUOT: 'the disk quota is used up',
  EFBIG: 'the file grew past the largest size allowed',
  EPIPE: 'its reader went away',
  EIO: 'an input/output error of the device',
  EROFS: 'the file system is read-only',
  EACCES: 'permission denied',
};

/** Why a write failed, in words. */
export function writeFailureReason(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code && code in REASONS) return REASONS[code];
  return error instanceof Error ? error.message : String(error);
}

/** "the report out.csv is incomplete: no space left on the device; free space …". */
export function fileFailure(what: string, path: string, error: unknown): string {
  return `${what} ${path} is incomplete: ${writeFailureReason(error)}; free space or choose another path, then run again`;
}
