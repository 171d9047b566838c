/**
 * One push per file and store at a time: a lock file beside the journal (lock-file.ts) names
 * the process that holds it (pid and host). A live holder makes a second run refuse; a dead
 * one's lock is taken over, and its journal resumes as usual.
 */
import { hostname } from 'node:os';
import { dirname } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { FileError } from '../errors.js';
import { processAlive } from '../process-alive.js';
import { makeDirectory } from './directory.js';
import { LockFile, UNREADABLE_GRACE_MS } from './lock-file.js';

/** Who holds a lock. */
export interface LockHolder {
  pid: number;
  host: string;
  since: string;
}

/** Why a lock could not be taken: its holder is alive (or on another host, so it may be). */
export class LockHeld extends Error {
  constructor(
    readonly holder: LockHolder,
    readonly lockFile: string,
  ) {
    super(`held by pid ${holder.pid} on ${holder.host} since ${holder.since}`);
  }
}

/** A lock taken; release() removes it if it is still ours. */
export interface HeldLock {
  release(): void;
}

/** Takes the lock at `file`, or throws LockHeld naming a live holder. */
export async function takeLock(file: string, now: Date): Promise<HeldLock> {
  makeDirectory(dirname(file));
  const lock = new LockFile(file);
  const mine = JSON.stringify({ pid: process.pid, host: hostname(), since: now.toISOString() });
  for (;;) {
    // A run that ended long ago may have been broken and retaken since: only our own lock goes.
    if (lock.create(mine)) return { release: () => void lock.removeIf(mine) };
    const found = lock.find();
    if (!found) continue;
    // Not a lock svc made (a directory in its place, another user's file): left for a person to look at.
    if (found.unreadable) throw found.unreadable;
    const holder = holderOf(found.content);
    if (holder && mayBeAlive(holder)) throw new LockHeld(holder, file);
    if (!holder && Date.now() - found.modifiedAt < UNREADABLE_GRACE_MS) {
      // Made this instant by a run that writes itself into it next.
      await delay(5);
      continue;
    }
    // A crashed or killed run left it: broken (unless another run broke it first), then taken.
    if (!lock.removeIf(found.content))
      throw new FileError(`the lock ${file} of a push that is gone cannot be removed; remove it by hand`);
  }
}

function holderOf(content: string): LockHolder | undefined {
  try {
    const holder = JSON.parse(content) as LockHolder;
    return Number.isInteger(holder.pid) && typeof holder.host === 'string' ? holder : undefined;
  } catch {
    return undefined;
  }
}

/** A process on this host is checked; one on another host (a shared home) may be alive. */
function mayBeAlive(holder: LockHolder): boolean {
  if (holder.host !== hostname()) return true;
  if (holder.pid === process.pid) return false;
  return processAlive(holder.pid);
}
