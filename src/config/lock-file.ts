/**
 * The one lock svc keeps on disk, for resume journals and for shared pacing alike: a file
 * made with O_CREAT|O_EXCL (no native module; the same on Linux and macOS) that holds what its
 * holder wrote about itself. Each user judges in its own words when a holder is gone (a dead
 * pid, a lease run out); breaking the lock is done here, one way, so that two processes that
 * both judge it stale never both break it, and never break the fresh lock that replaced it.
 */
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  linkSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs';

/**
 * A lock that cannot be read yet (empty, or not what its holder writes) may be one whose
 * holder made it this instant and writes next: it counts as held this long after its last change.
 */
export const UNREADABLE_GRACE_MS = 1_000;

/** A lock as found on disk. */
export interface FoundLock {
  /** What its holder wrote; '' while being written, or when it cannot be read. */
  content: string;
  /** When the file last changed (ms since the epoch). */
  modifiedAt: number;
  /** Why it cannot be read (a directory in its place, another user's file), when it cannot. */
  unreadable?: NodeJS.ErrnoException;
}

/** One lock file. */
export class LockFile {
  constructor(readonly path: string) {}

  /** Makes the lock holding `content` (mode 0600); false when it exists already. */
  create(content: string): boolean {
    let fd: number;
    try {
      fd = openSync(this.path, 'wx', 0o600);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw error;
    }
    try {
      writeSync(fd, content);
    } finally {
      closeSync(fd);
    }
    return true;
  }

  /** The lock as it is now; undefined when there is none (released meanwhile). */
  find(): FoundLock | undefined {
    let modifiedAt: number;
    try {
      modifiedAt = statSync(this.path).mtimeMs;
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
    try {
      return { content: readFileSync(this.path, 'utf8'), modifiedAt };
    } catch (error) {
      if (isMissing(error)) return undefined;
      const unreadable = error as NodeJS.ErrnoException;
      // A read by descriptor names no path: the error names the lock.
      unreadable.path ??= this.path;
      return { content: '', modifiedAt, unreadable };
    }
  }

  /**
   * Removes the lock if it still holds `content`: to break a stale one (`content` as found), or
   * to release one's own after it may have been broken and taken by another. It is set aside
   * under a name of this process's own first, so that of two processes only one removes it, and
   * a lock that took its place meanwhile is put back. True when no lock holding `content` remains
   * (removed here, or gone already), so taking it may be tried again at once.
   */
  removeIf(content: string): boolean {
    const aside = `${this.path}.${process.pid}.${randomBytes(4).toString('hex')}.stale`;
    try {
      renameSync(this.path, aside);
    } catch (error) {
      // Gone: another process removed it first. Anything else: it stays.
      return isMissing(error);
    }
    try {
      if (readFileSync(aside, 'utf8') !== content) linkSync(aside, this.path);
    } catch {
      // Its place was taken again meanwhile, or what was set aside is no file at all.
    } finally {
      rmSync(aside, { force: true, recursive: true });
    }
    return true;
  }

  /** Removes the lock without a look: only its holder, sure that nobody could have broken it. */
  remove(): void {
    try {
      unlinkSync(this.path);
    } catch (error) {
      if (!isMissing(error)) throw error;
    }
  }
}

function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException).code === 'ENOENT';
}
