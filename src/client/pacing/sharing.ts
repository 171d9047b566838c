/**
 * A pacer's side of the record it shares with the other `svc` processes on its key
 * (shared-record.ts, kept in a file by record-file.ts or in Redis by redis-store.ts): what it
 * loads before each decision, what it writes after, who else is there, and the --debug lines
 * about waits the others caused.
 */

import { plural } from '../../words.js';
import type { BucketModel } from './bucket-model.js';
import type { SharedStore } from './record-file.js';
import {
  dropDeparted,
  type Others,
  othersOf,
  processName,
  processPid,
  type SharedProcess,
  type SharedRecord,
} from './shared-record.js';

/** The pacer on the other end: what it lends to and takes from the record. */
export interface SharingPacer {
  readonly model: BucketModel;
  now(): number;
  /** The key's pause, as the record says. */
  setPause(untilMs: number): void;
  /** What it writes of itself: its pause, and its entry but for `seenAt`. */
  part(): { pausedUntil: number; entry: Omit<SharedProcess, 'seenAt'> };
}

const NOBODY: Others = { pids: [], inFlight: 0, queued: 0, departed: 0 };

/** The link of one pacer to its key's shared record. */
export class SharedPacing {
  /** The other live processes, as of the last look. */
  others: Others = NOBODY;
  /** When our oldest waiter asked, as our entry in the record says (a change is written at once). */
  publishedWaitingSince?: number;
  private pausedBy?: number;
  private pausedByName?: string;
  /** Grants of other processes since our first look (waiters queued before it hold mark 0). */
  private othersGranted = 0;
  /** Grants of other processes before our first look: theirs, not ahead of any request of ours. */
  private othersBefore?: number;
  private ownGrants = 0;
  private readonly peersSeen = new Set<number>();

  constructor(
    readonly store: SharedStore,
    private readonly pacer: SharingPacer,
    private readonly say: (line: string) => void,
    /**
     * A record last written before this (ms) knows less than the pacer, which paced without it
     * meanwhile (Redis was away): the pacer keeps its own model and pause, and writes them.
     */
    private readonly staleBefore = Number.NEGATIVE_INFINITY,
  ) {}

  /** Other processes have requests out or waiting: their answers can move our turn. */
  get othersActive(): boolean {
    return this.others.inFlight > 0 || this.others.earliestWaiting !== undefined;
  }

  /** A mark to tell, at grant, how many requests of others went first. */
  get mark(): number {
    return this.othersGranted;
  }

  /**
   * Looks without the lock; false when that is not enough (then transact): the record was
   * caught mid-write, or it still holds processes that are gone, whose requests in flight
   * only a write under the lock can account for.
   */
  async peek(): Promise<boolean> {
    const record = await this.store.peek();
    if (record) this.look(record);
    return record !== undefined && this.others.departed === 0;
  }

  /** Runs `step` on the record under the lock, between loading it into the pacer and writing the pacer's part. */
  transact<T>(step: (at: number, record: SharedRecord) => T): Promise<T> {
    return this.store.transact((record) => {
      const at = this.pacer.now();
      const departed = dropDeparted(record, this.store.pid, (pid) => this.store.isAlive(pid), at);
      this.look(record);
      // A process that died may have had requests reach the service: they stay in the level
      // bound until one answer says what the bucket holds.
      for (const [pid, gone] of departed) {
        if (gone.inFlight === 0) continue;
        this.pacer.model.reclaim(gone.inFlight, gone.seenAt, at);
        this.say(
          `${processName(pid, gone)} is gone with ${gone.inFlight} ${plural(gone.inFlight, 'request')} out: ` +
            'the next request learns what they left in the bucket',
        );
      }
      const result = step(at, record);
      this.save(record, at);
      return result;
    });
  }

  /** Loads what everyone knows into the pacer: the model and the key's pause. */
  look(record: SharedRecord): void {
    if (record.updatedAt >= this.staleBefore) {
      this.pacer.model.load(record.model);
      this.pacer.setPause(record.pausedUntil);
    }
    this.pausedBy = record.pausedBy;
    this.pausedByName =
      record.pausedBy === undefined
        ? undefined
        : processName(record.pausedBy, record.processes[String(record.pausedBy)]);
    this.others = othersOf(record, this.store.pid, (pid) => this.store.isAlive(pid), this.pacer.now());
    this.othersBefore ??= record.grants - this.ownGrants;
    this.othersGranted = record.grants - this.ownGrants - this.othersBefore;
    const newcomers = this.others.pids.filter((pid) => !this.peersSeen.has(pid));
    if (newcomers.length === 0) return;
    for (const pid of newcomers) this.peersSeen.add(pid);
    const count = this.others.pids.length;
    const pids = this.others.pids.map((pid) => processPid(pid, record.processes[String(pid)]));
    this.say(
      `pacing shared with ${count} other svc ${plural(count, 'process', 'processes')} on this key ` +
        `(pid ${pids.join(', ')}), through ${this.store.where}`,
    );
  }

  /** Counts one grant of ours in the record. */
  granted(record: SharedRecord): void {
    record.grants += 1;
    this.ownGrants += 1;
  }

  /** A --debug line when a wait of `waitedMs` from `queuedAt` (mark `mark`) was the others' doing. */
  explainWait(waitedMs: number, queuedAt: number, mark: number, pausedUntil: number): void {
    const waited = `${Math.round(waitedMs)} ms`;
    const ahead = this.othersGranted - mark;
    if (ahead > 0) {
      const processes = this.others.pids.length;
      const whose = processes <= 1 ? 'another svc process' : `${processes} other svc processes`;
      this.say(
        `⧗ waited ${waited} for this key's rate limit: ${ahead} ${plural(ahead, 'request')} of ${whose} went first`,
      );
    } else if (this.pausedBy !== undefined && this.pausedBy !== this.store.pid && pausedUntil > queuedAt) {
      this.say(
        `⧗ waited ${waited}: ${this.pausedByName ?? `svc process ${this.pausedBy}`} was answered 429, and the whole key waits its Retry-After`,
      );
    }
  }

  /** Takes this process out of the record; what it learned stays for the others. */
  async leave(): Promise<void> {
    try {
      await this.store.transact((record) => {
        delete record.processes[String(this.store.pid)];
      });
    } catch {
      // The others drop us anyway once our pid is gone.
    }
    this.publishedWaitingSince = undefined;
  }

  private save(record: SharedRecord, at: number): void {
    const { model } = this.pacer;
    const { pausedUntil, entry } = this.pacer.part();
    record.model = model.save();
    if (pausedUntil > record.pausedUntil) {
      record.pausedUntil = pausedUntil;
      record.pausedBy = this.store.pid;
    }
    const nextAt = model.bucket === undefined ? undefined : Math.max(pausedUntil, model.readyAt());
    record.nextAt = nextAt !== undefined && Number.isFinite(nextAt) ? nextAt : undefined;
    record.processes[String(this.store.pid)] = { ...this.store.label, ...entry, seenAt: at };
    this.publishedWaitingSince = entry.waitingSince;
  }
}

/** A process sharing a key's bucket, as `svc doctor` lists them. */
export interface SharingProcess {
  /** Its pid, and its machine when it shares through Redis: "4120 on ci-runner-7". */
  pid: string;
  /** The process asking. */
  self: boolean;
  inFlight: number;
  /** Its requests waiting for a slot. */
  queued: number;
  startedAt: Date;
  lastSeenAt: Date;
}

/** The processes of a store's record that are not gone (dead, silent, stalled), the asking one included. */
export async function processesSharing(store: SharedStore, now = Date.now()): Promise<SharingProcess[]> {
  // A look that catches a write half done tries again.
  const record = (await store.peek()) ?? (await store.peek()) ?? (await store.peek());
  if (!record) return [];
  const others = othersOf(record, store.pid, (pid) => store.isAlive(pid), now);
  const ids = store.pid in record.processes ? [store.pid, ...others.pids] : others.pids;
  return ids.map((id) => {
    const entry = record.processes[String(id)] as SharedProcess;
    return {
      pid: processPid(id, entry),
      self: id === store.pid,
      inFlight: entry.inFlight,
      queued: entry.queued,
      startedAt: new Date(entry.startedAt),
      lastSeenAt: new Date(entry.seenAt),
    };
  });
}
