/**
 * One push per file and store at a time: a lock file beside the journal names the process
 * that holds it (pid and host). A live holder makes a second run refuse; a dead one's lock
 * is taken over, and its journal resumes as usual.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname } from 'node:path';
import { processAlive } from '../process-alive.js';

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
export function takeLock(file: string, now: Date): HeldLock {
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  const mine: LockHolder = { pid: process.pid, host: hostname(), since: now.toISOString() };
  for (let attempt = 0; ; attempt++) {
    try {
      writeFileSync(file, JSON.stringify(mine), { flag: 'wx', mode: 0o600 });
      return { release: () => releaseIfMine(file, mine) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 0) throw error;
    }
    const holder = readHolder(file);
    if (holder && mayBeAlive(holder)) throw new LockHeld(holder, file);
    // A crashed or killed run left it: take it over (once; a racing run then wins or loses cleanly).
    rmSync(file, { force: true });
  }
}

function readHolder(file: string): LockHolder | undefined {
  try {
    const holder = JSON.parse(readFileSync(file, 'utf8')) as LockHolder;
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

function releaseIfMine(file: string, mine: LockHolder): void {
  const holder = readHolder(file);
  if (holder && holder.pid === mine.pid && holder.host === mine.host) rmSync(file, { force: true });
}
