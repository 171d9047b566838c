/**
 * What the `svc` processes using one key share (record-file.ts keeps it in a file for one
 * machine, redis-store.ts in Redis for several): the bucket model learned from the headers, the
 * key-wide pause after a 429, and each process's requests in flight and waiting. Pure: times
 * and pid liveness are passed in.
 */

import { DEFAULT_RETRY_POLICY } from '../retry.js';
import type { BucketModelState } from './bucket-model.js';

/** Bumped when the shape changes; a record of another version is replaced, never misread. */
const SHARED_STATE_VERSION = 1;

/** A process that left no trace for this long is gone, whatever its pid says (pid reuse). */
export const SILENT_PROCESS_MS = 15 * 60_000;

/**
 * A process that wrote nothing for this long while it had requests out is stopped (Ctrl-Z, a
 * debugger) or stuck; it writes at every grant and answer otherwise. Its requests have reached
 * the service by now or never will, so the others count it gone, as if it had died, rather
 * than wait on requests it may never account for. It writes itself back at its next step.
 */
export const STALLED_PROCESS_MS = 5_000;

/**
 * A process whose liveness cannot be checked (on another machine: its pid means nothing here)
 * that wrote nothing for this long is gone, even with nothing out: it is judged by its writes.
 */
export const REMOTE_SILENT_MS = 60_000;

/**
 * A record written further ahead of our clock than this comes from a clock that has since
 * stepped back: its times would hold every request until the clock caught up.
 */
const CLOCK_SLACK_MS = 10_000;

/** No pause of the key outlasts the longest Retry-After a client waits for (a longer one fails the request). */
const LONGEST_PAUSE_MS = DEFAULT_RETRY_POLICY.maxRetryAfterMs;

/**
 * A slot that has been free this long goes to whoever asks, even when another process's
 * request has waited longer: that process is slow to wake (a busy event loop), not starved.
 */
export const FAIR_GRACE_MS = 20;

/** How soon a process that yielded a free slot to an earlier waiter looks again. */
export const FAIR_POLL_MS = 2;

/** One process's part of the record, written by that process only. */
export interface SharedProcess {
  /** Its machine and pid, when its id in the record is not its pid (shared through Redis). */
  host?: string;
  pid?: number;
  startedAt: number;
  /** Its last write. */
  seenAt: number;
  inFlight: number;
  queued: number;
  /** When its oldest waiting request asked for a slot; absent while none waits. */
  waitingSince?: number;
  grants: number;
}

/** The file's content. */
export interface SharedRecord {
  version: typeof SHARED_STATE_VERSION;
  /** The hash of key and base URL this record paces (never the key). */
  bucketId: string;
  updatedAt: number;
  /** Requests let go by every process, ever. */
  grants: number;
  /** No request of the key goes before this (a 429's Retry-After). */
  pausedUntil: number;
  /** The process whose 429 set the pause. */
  pausedBy?: number;
  /** When the next request may go, as of the last write: for people and `svc doctor`. */
  nextAt?: number;
  model?: BucketModelState;
  /** By id: the pid on one machine, a random number across machines (never two alike). */
  processes: Record<string, SharedProcess>;
}

/** The other live processes of a record, summed up. */
export interface Others {
  pids: number[];
  inFlight: number;
  queued: number;
  /** The oldest waiting request among them. */
  earliestWaiting?: number;
  /** Processes still in the record that are gone (dead, silent, stalled): a write under the lock drops them. */
  departed: number;
}

/** A record with nothing in it yet. */
export function emptyRecord(bucketId: string, now: number): SharedRecord {
  return {
    version: SHARED_STATE_VERSION,
    bucketId,
    updatedAt: now,
    grants: 0,
    pausedUntil: 0,
    processes: {},
  };
}

/**
 * The record in `text`, or undefined when it is not one of ours for this bucket (corrupt,
 * truncated, another version) or its times cannot hold at `now` (a clock that stepped back,
 * a pause longer than any Retry-After waited for): the caller starts afresh and overwrites it.
 */
export function parseRecord(text: string, bucketId: string, now: number): SharedRecord | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isObject(value) || value.version !== SHARED_STATE_VERSION || value.bucketId !== bucketId)
    return undefined;
  if (!isCount(value.grants) || !isTime(value.pausedUntil) || !isTime(value.updatedAt)) return undefined;
  if (!isObject(value.processes) || (value.model !== undefined && !isObject(value.model))) return undefined;
  if (!isOptionalTime(value.pausedBy) || !isOptionalTime(value.nextAt)) return undefined;
  if (value.updatedAt > now + CLOCK_SLACK_MS) return undefined;
  if (value.pausedUntil > value.updatedAt + LONGEST_PAUSE_MS + CLOCK_SLACK_MS) return undefined;
  const processes: Record<string, SharedProcess> = {};
  for (const [pid, entry] of Object.entries(value.processes)) {
    if (!/^[1-9]\d*$/.test(pid) || !isProcess(entry)) return undefined;
    processes[pid] = entry;
  }
  return { ...(value as unknown as SharedRecord), processes };
}

/**
 * Whether a process is still there: true or false when its pid can be checked, undefined when
 * it cannot (another machine), and then only its last write tells.
 */
export type Liveness = (pid: number) => boolean | undefined;

/**
 * Whether a process of the record is gone at `now`: its pid is dead, it wrote nothing for
 * SILENT_PROCESS_MS, or nothing for STALLED_PROCESS_MS while it had requests out. One whose
 * pid cannot be checked is gone after STALLED_PROCESS_MS of silence with requests out or
 * waiting, and after REMOTE_SILENT_MS in any case.
 */
function isDeparted(pid: number, entry: SharedProcess, isAlive: Liveness, now: number): boolean {
  const silentFor = now - entry.seenAt;
  if (silentFor > SILENT_PROCESS_MS) return true;
  if (entry.inFlight > 0 && silentFor > STALLED_PROCESS_MS) return true;
  const alive = isAlive(pid);
  if (alive !== undefined) return !alive;
  if (entry.queued > 0 && silentFor > STALLED_PROCESS_MS) return true;
  return silentFor > REMOTE_SILENT_MS;
}

/** How messages name a process of the record: "svc process 4120", or "svc process 4120 on ci-runner-7". */
export function processName(id: number, entry: SharedProcess | undefined): string {
  return `svc process ${processPid(id, entry)}`;
}

/** A process's pid, and its machine when the record holds processes of several: "4120 on ci-runner-7". */
export function processPid(id: number, entry: SharedProcess | undefined): string {
  if (entry?.pid === undefined) return String(id);
  return `${entry.pid}${entry.host ? ` on ${entry.host}` : ''}`;
}

/**
 * Takes out of the record the processes that are gone (isDeparted). Returns them by pid, so
 * their requests in flight can be accounted.
 */
export function dropDeparted(
  record: SharedRecord,
  self: number,
  isAlive: Liveness,
  now: number,
): [pid: number, entry: SharedProcess][] {
  const gone: [number, SharedProcess][] = [];
  for (const [key, entry] of Object.entries(record.processes)) {
    const pid = Number(key);
    if (pid === self) continue;
    if (isDeparted(pid, entry, isAlive, now)) {
      gone.push([pid, entry]);
      delete record.processes[key];
    }
  }
  return gone;
}

/** The processes of the record other than `self` that are not gone at `now`. */
export function othersOf(record: SharedRecord, self: number, isAlive: Liveness, now: number): Others {
  const others: Others = { pids: [], inFlight: 0, queued: 0, departed: 0 };
  for (const [key, entry] of Object.entries(record.processes)) {
    const pid = Number(key);
    if (pid === self) continue;
    if (isDeparted(pid, entry, isAlive, now)) {
      others.departed += 1;
      continue;
    }
    others.pids.push(pid);
    others.inFlight += entry.inFlight;
    others.queued += entry.queued;
    if (entry.waitingSince !== undefined) {
      others.earliestWaiting = Math.min(
        others.earliestWaiting ?? Number.POSITIVE_INFINITY,
        entry.waitingSince,
      );
    }
  }
  return others;
}

/**
 * First come, first served across processes: milliseconds to leave a slot, free since
 * `readySince`, to another process whose request has waited longer than ours (queued at
 * `mine`); 0 to take it. After FAIR_GRACE_MS it goes to whoever is awake.
 */
export function fairTurnDelay(at: number, readySince: number, mine: number, others: Others): number {
  const earliest = others.earliestWaiting;
  if (earliest === undefined || earliest >= mine) return 0;
  const theirTurn = Math.max(readySince, earliest);
  return at - theirTurn >= FAIR_GRACE_MS ? 0 : FAIR_POLL_MS;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isTime(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

function isOptionalTime(value: unknown): boolean {
  return value === undefined || isTime(value);
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}

function isProcess(value: unknown): value is SharedProcess {
  return (
    isObject(value) &&
    isTime(value.startedAt) &&
    isTime(value.seenAt) &&
    isCount(value.inFlight) &&
    isCount(value.queued) &&
    isCount(value.grants) &&
    isOptionalTime(value.waitingSince) &&
    (value.host === undefined || typeof value.host === 'string') &&
    (value.pid === undefined || isCount(value.pid))
  );
}
