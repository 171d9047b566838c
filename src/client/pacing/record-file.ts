/**
 * Pacing shared by the `svc` processes that use one key on this machine. The record of
 * shared-record.ts lives in `<config dir>/pacing/<id>.json` (mode 0600; `id` hashes key and base
 * URL, the key itself is never written) and changes only under a lock file, svc's one kind of
 * lock (src/config/lock-file.ts), which a holder keeps for well under a millisecond, and is
 * overwritten in place (src/config/locked-file.ts). A look without the lock that catches a write
 * half done finds no valid record, and the caller then reads under the lock.
 *
 * Crash safety: a lock whose holder died (kill -9) is broken at once, since its pid is gone;
 * one held past LOCK_LEASE_MS (a stopped process, a reused pid) after that. A corrupt or
 * unreadable record is replaced. Anything else that fails makes the pacer pace alone again.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeDirectory } from '../../config/directory.js';
import { LOCK_LEASE_MS } from '../../config/lock-file.js';
import { LockedFile } from '../../config/locked-file.js';
import { normalBaseUrl } from '../../config/store-identity.js';
import { processAlive } from '../../process-alive.js';
import { emptyRecord, parseRecord, type SharedRecord } from './shared-record.js';

// The lock is config's (every file svc keeps takes it); pacing uses it from here too.
export { LOCK_LEASE_MS };

const DIR_MODE = 0o700;

/** Where a pacer keeps what it shares with the other processes on its key. */
export interface SharedStore {
  /** This process, as the record names it (its pid on one machine; a random number across machines). */
  readonly pid: number;
  /** Where the record lives, for --debug. */
  readonly where: string;
  /** This process's machine and pid, written in its entry when `pid` is not its pid. */
  readonly label?: { host: string; pid: number };
  /** Whether a process of the record runs; undefined when that cannot be told here (its last write tells). */
  isAlive(pid: number): boolean | undefined;
  /** The record as last written, read without the lock; undefined when caught mid-write. */
  peek(): Promise<SharedRecord | undefined>;
  /** Runs `change` on the record under the lock and writes the record back. */
  transact<T>(change: (record: SharedRecord) => T): Promise<T>;
  /**
   * For a store that can be away and come back (Redis): whether it is worth a step now. A
   * pacer that left it for another (this machine's file) comes back once it says so.
   */
  available?(): boolean;
}

/** The folder of the shared records, below the config dir. */
export function sharedPacingDir(configDir: string): string {
  return join(configDir, 'pacing');
}

/** The name of a key's bucket on disk: a hash of base URL and key, so the key is never written. */
export function sharedBucketId(apiKey: string, baseUrl: string): string {
  // One bucket however the URL is spelled (localhost or 127.0.0.1, a trailing slash, a default port).
  const base = normalBaseUrl(baseUrl);
  return createHash('sha256').update(`${base}\n${apiKey}`).digest('hex').slice(0, 32);
}

/** The shared record of one key's bucket in a file, for the processes of this machine. */
export class FileStore implements SharedStore {
  readonly pid = process.pid;
  readonly where: string;
  private readonly file: LockedFile;
  private dirMade = false;

  constructor(
    private readonly dir: string,
    private readonly bucketId: string,
    private readonly now: () => number = Date.now,
  ) {
    this.where = join(dir, `${bucketId}.json`);
    this.file = new LockedFile(this.where, join(dir, `${bucketId}.lock`));
  }

  isAlive(pid: number): boolean {
    return processAlive(pid);
  }

  async peek(): Promise<SharedRecord | undefined> {
    let text: string;
    try {
      text = readFileSync(this.where, 'utf8');
    } catch {
      return emptyRecord(this.bucketId, this.now());
    }
    return parseRecord(text, this.bucketId, this.now());
  }

  async transact<T>(change: (record: SharedRecord) => T): Promise<T> {
    if (!this.dirMade) {
      makeDirectory(this.dir, DIR_MODE);
      this.dirMade = true;
    }
    return this.file.update((text) => {
      // Corrupt, truncated by a crash, another version, times from a clock that stepped back: start afresh over it.
      const record = parseRecord(text, this.bucketId, this.now()) ?? emptyRecord(this.bucketId, this.now());
      const result = change(record);
      record.updatedAt = this.now();
      return { text: JSON.stringify(record), result };
    });
  }
}

/** A store for a key's bucket in `dir` (nothing touches the disk before the first request). */
export function openSharedStore(dir: string, apiKey: string, baseUrl: string, now?: () => number): FileStore {
  return new FileStore(dir, sharedBucketId(apiKey, baseUrl), now);
}
