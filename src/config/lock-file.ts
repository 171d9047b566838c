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
import { setTimeout as delay } from 'node:timers/promises';
import { processAlive } from '../process-alive.js';

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

/** A live holder keeps the lock well under a millisecond; one that held it this long is stuck. */
export const LOCK_LEASE_MS = 1_000;
/** Past this, a process gives up (a lock it can neither take nor break). */
const LOCK_GIVE_UP_MS = 3_000;

/**
 * Runs `work` holding `lock`, taken as the record's is: a stale one broken, given up after
 * LOCK_GIVE_UP_MS. (config.json, the pacing record and the quota count each take theirs this way.)
 */
export async function underLock<T>(lock: LockFile, work: () => T | Promise<T>): Promise<T> {
  const held = await takeLock(lock);
  try {
    return await work();
  } finally {
    releaseLock(lock, held);
  }
}

/** The lock as its holder wrote it. */
interface HeldLock {
  content: string;
  takenAt: number;
}

let locksTaken = 0;

/** Takes the lock file, breaking a stale one; gives up after LOCK_GIVE_UP_MS. */
async function takeLock(lock: LockFile): Promise<HeldLock> {
  locksTaken += 1;
  const giveUpAt = Date.now() + LOCK_GIVE_UP_MS;
  for (let attempt = 0; ; attempt += 1) {
    const takenAt = Date.now();
    const content = `${process.pid} ${takenAt} ${locksTaken}`;
    if (lock.create(content)) return { content, takenAt };
    if (Date.now() > giveUpAt) {
      throw new Error(`the lock ${lock.path} stayed taken for ${LOCK_GIVE_UP_MS / 1000} s`);
    }
    // Holders keep it for well under a millisecond; a stale one just broken is tried again at once.
    if (!breakIfStale(lock)) await delay(attempt < 20 ? 1 : 5);
  }
}

/**
 * Breaks the lock when its holder is dead or held it past the lease; true when it is gone
 * (broken, or released meanwhile), so that taking it may be tried again at once.
 */
function breakIfStale(lock: LockFile): boolean {
  const found = lock.find();
  if (!found) return true; // released meanwhile
  // Unreadable (a directory in its place, another user's file): stale once its lease is over.
  const { content, modifiedAt } = found;
  const [pid, takenAt] = content.split(' ').map(Number);
  const holderDied = Number.isInteger(pid) && pid > 0 && !processAlive(pid);
  // An empty lock is one being written this instant, or one whose writer died right then.
  const since = Number.isFinite(takenAt) && content !== '' ? takenAt : modifiedAt;
  if (!holderDied && Date.now() - since < LOCK_LEASE_MS) return false;
  return lock.removeIf(content);
}

function releaseLock(lock: LockFile, held: HeldLock): void {
  try {
    // Held past the lease, it may have been broken and taken by another process: remove only ours.
    if (Date.now() - held.takenAt < LOCK_LEASE_MS) lock.remove();
    else lock.removeIf(held.content);
  } catch {
    // What is left is broken as stale by the next process.
  }
}
