/**
 * The client-side pacer shared by every request of one client: it lets a request go when the
 * bucket model (bucket-model.ts) proves it fits, first come first served, so that a lone
 * client spends the burst at once, then holds the drain rate, and never sees a 429.
 *
 * With a SharedStore (shared-pacing.ts) the model, the pause after a 429 and the requests in
 * flight and waiting belong to every `svc` process on the key: each step loads them under the
 * store's lock, so N processes together send at the drain rate, first come first served, as
 * one client would. Without one (SVC_SHARED_PACING=0, tests) everything stays in this process.
 */
import { type BucketAnswer, BucketModel } from './bucket-model.js';
import { RATE_LIMIT_HEADERS } from './contract.js';
import type { SharedStore } from './shared-pacing.js';
import { dropDeparted, fairTurnDelay, type Others, othersOf, type SharedRecord } from './shared-state.js';

/** Clock and tuning of a pacer; all injectable for tests. */
export interface PacerOptions {
  now?: () => number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Requests allowed in flight before the first answer tells the bucket size. */
  initialConcurrency?: number;
  /** Fraction of the learned drain rate used, against timer and rounding slop. */
  safety?: number;
  /** Answers remembered for learning. */
  history?: number;
  /** The pacing state of every `svc` process on the key; absent: this process paces alone. */
  shared?: SharedStore;
  /** Receives --debug lines about waits that other processes caused. */
  debug?: (line: string) => void;
}

/** Permission to send one request; hand it back to observe() or release(). */
export interface PacerTicket {
  readonly id: number;
  /** When the request was let go (pacer clock, ms). */
  readonly sentAt: number;
}

/** An answer as the pacer needs it (header names in lower case). */
export interface PacerAnswer {
  status: number;
  headers: Record<string, string>;
  /** A 429 rate_limit_exceeded: everyone waits `retryAfterMs` (a write-quota 429 is not). */
  rateLimited?: boolean;
  retryAfterMs?: number;
}

/** What the pacer currently believes, for --debug and benchmarks. */
export interface PacerSnapshot {
  bucket?: number;
  drainPerSecond?: number;
  learnedDrainPerSecond?: number;
  levelBound?: number;
  inFlight: number;
  queued: number;
  pausedUntil?: number;
  /** Other `svc` processes pacing on the same key, when shared. */
  sharedWith?: number;
}

interface Waiter {
  resolve: (ticket: PacerTicket) => void;
  signal?: AbortSignal;
  onAbort?: () => void;
  queuedAt: number;
  /** Other processes' grants seen when it queued. */
  othersBefore: number;
}

const IDLE_RECHECK_MS = 60_000;
/** While other processes have requests out or waiting, their answers move our turn: look this often. */
const SHARED_POLL_MS = 10;
const NOBODY: Others = { pids: [], inFlight: 0, queued: 0 };
/**
 * In flight at once when authenticated answers carry no rate-limit headers at all (a service
 * or proxy without them, `svc emulator start --no-rate-limit`): nothing to pace by, so a
 * modest fixed concurrency instead of one request at a time.
 */
const HEADERLESS_CONCURRENCY = 8;

/** The shared leaky-bucket pacer of one client. */
export class Pacer {
  private readonly now: () => number;
  private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  private readonly initialConcurrency: number;
  private readonly model: BucketModel;
  private pausedUntil = 0;
  /** Set by an authenticated answer without rate-limit headers. */
  private headerless = false;
  private granted = 0;
  private inFlight = 0;
  private readonly queue: Waiter[] = [];
  private pumping = false;
  private wakeUp?: AbortController;
  private shared?: SharedStore;
  private readonly debugLine?: (line: string) => void;
  private readonly startedAt: number;
  /** Steps applied to the shared record, in order (answers, releases, pauses). */
  private sharedSteps: Promise<void> = Promise.resolve();
  private others: Others = NOBODY;
  private readonly peersSeen = new Set<number>();
  private pausedBy?: number;
  /** Grants of other processes in the record (only differences mean anything). */
  private othersGranted = 0;
  private ownRecordedGrants = 0;
  /** What our entry in the record says of our oldest waiter: a change is written at once. */
  private publishedWaitingSince?: number;
  /** Times a request had to wait, and for how long in all (ms). */
  waits = 0;
  waitedMs = 0;

  constructor(options: PacerOptions = {}) {
    this.now = options.now ?? preciseNow;
    this.sleep = options.sleep ?? defaultSleep;
    this.initialConcurrency = options.initialConcurrency ?? 1;
    this.model = new BucketModel(options.safety, options.history);
    this.shared = options.shared;
    this.debugLine = options.debug;
    this.startedAt = this.now();
  }

  /** Resolves when one more request may be sent; waiters are served first come, first served. */
  acquire(signal?: AbortSignal): Promise<PacerTicket> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise((resolve, reject) => {
      const waiter: Waiter = { resolve, signal, queuedAt: this.now(), othersBefore: this.othersGranted };
      if (signal) {
        waiter.onAbort = () => {
          const index = this.queue.indexOf(waiter);
          if (index >= 0) this.queue.splice(index, 1);
          reject(signal.reason);
          this.wake();
        };
        signal.addEventListener('abort', waiter.onAbort, { once: true });
      }
      this.queue.push(waiter);
      void this.pump();
    });
  }

  /** Learn from an answer that reached us, whatever its status. */
  observe(ticket: PacerTicket, answer: PacerAnswer, receivedAt = this.now()): void {
    this.update(() => {
      this.inFlight = Math.max(0, this.inFlight - 1);
      const facts = rateFacts(answer, receivedAt);
      if (facts) {
        // A 429 for a request our model let go means someone else spent the bucket.
        const surprised = answer.rateLimited === true && ticket.sentAt >= this.pausedUntil;
        const stillOut = this.inFlight + this.others.inFlight;
        this.model.observe(ticket.sentAt, receivedAt, facts, stillOut, surprised);
      } else {
        this.model.release(ticket.sentAt, receivedAt);
        // 401s and the unauthenticated endpoints never carry the headers; other answers should.
        if (answer.status !== 401 && answer.status < 500) this.headerless = true;
      }
      if (answer.rateLimited) this.holdUntil(receivedAt + (answer.retryAfterMs ?? 1000));
    });
  }

  /** Hand back a ticket whose request got no answer (network failure); it may still have counted. */
  release(ticket: PacerTicket): void {
    const at = this.now();
    this.update(() => {
      this.inFlight = Math.max(0, this.inFlight - 1);
      this.model.release(ticket.sentAt, at);
    });
  }

  /** Hold every request until `untilMs` (a 429's Retry-After). */
  pause(untilMs: number): void {
    this.update(() => this.holdUntil(untilMs));
  }

  /** Takes this process out of the shared record; what it learned stays for the others. */
  async close(): Promise<void> {
    await this.sharedSteps;
    const shared = this.shared;
    if (!shared) return;
    try {
      await shared.transact((record) => {
        delete record.processes[String(shared.pid)];
      });
    } catch {
      // The others drop us anyway once our pid is gone.
    }
    this.publishedWaitingSince = undefined;
  }

  /** The drain rate in use (requests per second), once the bucket is known. */
  drainRate(): number | undefined {
    return this.model.drainRate();
  }

  /** Milliseconds until the next request may go at `at`; Infinity while only an answer can tell. */
  delayMs(at = this.now()): number {
    if (at < this.pausedUntil) return this.pausedUntil - at;
    if (this.model.bucket === undefined) {
      const allowed = this.headerless ? HEADERLESS_CONCURRENCY : this.initialConcurrency;
      return this.inFlight + this.others.inFlight < allowed ? 0 : Number.POSITIVE_INFINITY;
    }
    return this.model.delayMs(at);
  }

  /** What the pacer believes now. */
  snapshot(): PacerSnapshot {
    const at = this.now();
    const learned = this.model.learnedDrain();
    return {
      bucket: this.model.bucket,
      drainPerSecond: this.model.drainRate(),
      learnedDrainPerSecond: learned > 0 ? learned : undefined,
      levelBound: this.model.levelAt(at),
      inFlight: this.inFlight,
      queued: this.queue.length,
      pausedUntil: this.pausedUntil > at ? this.pausedUntil : undefined,
      sharedWith: this.shared ? this.others.pids.length : undefined,
    };
  }

  private grant(waiter: Waiter, at: number, record?: SharedRecord): void {
    const ticket: PacerTicket = { id: this.granted, sentAt: at };
    this.granted += 1;
    this.inFlight += 1;
    this.model.grant(at);
    if (record) {
      record.grants += 1;
      this.ownRecordedGrants += 1;
    }
    if (at > waiter.queuedAt) {
      this.waits += 1;
      this.waitedMs += at - waiter.queuedAt;
      if (record) this.explainWait(waiter, at);
    }
    if (waiter.signal && waiter.onAbort) waiter.signal.removeEventListener('abort', waiter.onAbort);
    waiter.resolve(ticket);
  }

  private holdUntil(untilMs: number): void {
    this.pausedUntil = Math.max(this.pausedUntil, untilMs);
  }

  private wake(): void {
    this.wakeUp?.abort();
  }

  private async pump(): Promise<void> {
    if (this.pumping) return;
    this.pumping = true;
    try {
      while (this.queue.length > 0) {
        const delay = this.shared ? await this.sharedTurn() : this.localTurn();
        if (delay <= 0) continue;
        const othersActive = this.others.inFlight > 0 || this.others.earliestWaiting !== undefined;
        const recheck = this.shared && othersActive ? SHARED_POLL_MS : IDLE_RECHECK_MS;
        this.wakeUp = new AbortController();
        try {
          await this.sleep(Math.min(delay, recheck), this.wakeUp.signal);
        } catch {
          // Woken early by an answer or an abort: look again.
        } finally {
          this.wakeUp = undefined;
        }
      }
      // Aborted waiters: say that none of ours waits any more.
      if (this.shared && this.publishedWaitingSince !== undefined) this.update(() => {});
    } finally {
      this.pumping = false;
    }
  }

  /** Lets the oldest waiter go if the bucket has room; else the milliseconds to wait. */
  private localTurn(): number {
    const at = this.now();
    const delay = this.delayMs(at);
    if (delay <= 0) this.grant(this.queue.shift() as Waiter, at);
    return delay;
  }

  /** localTurn with the shared record: first the look without the lock, then the grant under it. */
  private async sharedTurn(): Promise<number> {
    await this.sharedSteps;
    const shared = this.shared;
    const head = this.queue[0];
    if (!shared || !head) return this.queue.length > 0 ? this.localTurn() : 0;
    try {
      // Most looks find that it is not time yet; others must know we wait, though.
      if (head.queuedAt === this.publishedWaitingSince) {
        this.absorb(shared.peek());
        const delay = this.turnDelay(this.now(), head);
        if (delay > 0) return delay;
      }
      return await this.sharedStep((at, record) => {
        const first = this.queue[0];
        if (!first) return 0;
        const delay = this.turnDelay(at, first);
        if (delay <= 0) this.grant(this.queue.shift() as Waiter, at, record);
        return delay;
      });
    } catch (error) {
      this.stopSharing(error);
      return this.queue.length > 0 ? this.localTurn() : 0;
    }
  }

  /** The model's delay, then the turn of older waiters of other processes. */
  private turnDelay(at: number, head: Waiter): number {
    const delay = this.delayMs(at);
    if (delay > 0 || this.model.bucket === undefined) return delay;
    const readySince = Math.max(this.pausedUntil, this.model.readySince());
    return fairTurnDelay(at, readySince, head.queuedAt, this.others);
  }

  /** Applies a change now, or, when shared, in order under the lock; then looks at the queue again. */
  private update(change: () => void): void {
    if (!this.shared) {
      change();
      this.wake();
      return;
    }
    let applied = false;
    const once = () => {
      if (applied) return;
      applied = true;
      change();
    };
    this.sharedSteps = this.sharedSteps
      .then(() => this.sharedStep(once))
      .catch((error) => {
        this.stopSharing(error);
        once();
      })
      .finally(() => {
        if (this.headerless) void this.stopSharingQuietly();
        this.wake();
      });
  }

  /** Runs `step` on the record under the lock: what everyone knows in, what we changed out. */
  private async sharedStep<T>(step: (at: number, record?: SharedRecord) => T): Promise<T> {
    const shared = this.shared;
    if (!shared) return step(this.now());
    return shared.transact((record) => {
      const at = this.now();
      const departed = dropDeparted(record, shared.pid, (pid) => shared.isAlive(pid), at);
      this.absorb(record);
      // A process that died may have had requests reach the service: count them as lost.
      for (const gone of departed) {
        for (let i = 0; i < gone.inFlight; i += 1) this.model.release(gone.seenAt, at);
      }
      const result = step(at, record);
      this.publish(record, at);
      return result;
    });
  }

  private absorb(record: SharedRecord): void {
    const shared = this.shared as SharedStore;
    this.model.load(record.model);
    this.pausedUntil = record.pausedUntil;
    this.pausedBy = record.pausedBy;
    this.others = othersOf(record, shared.pid, (pid) => shared.isAlive(pid));
    this.othersGranted = record.grants - this.ownRecordedGrants;
    const newcomers = this.others.pids.filter((pid) => !this.peersSeen.has(pid));
    if (newcomers.length === 0) return;
    for (const pid of newcomers) this.peersSeen.add(pid);
    const count = this.others.pids.length;
    this.say(
      `pacing shared with ${count} other svc process${count === 1 ? '' : 'es'} on this key ` +
        `(pid ${this.others.pids.join(', ')}), through ${shared.where}`,
    );
  }

  private publish(record: SharedRecord, at: number): void {
    const shared = this.shared as SharedStore;
    record.model = this.model.save();
    if (this.pausedUntil > record.pausedUntil) {
      record.pausedUntil = this.pausedUntil;
      record.pausedBy = shared.pid;
    }
    const nextAt =
      this.model.bucket === undefined ? undefined : Math.max(this.pausedUntil, this.model.readyAt());
    record.nextAt = nextAt !== undefined && Number.isFinite(nextAt) ? nextAt : undefined;
    const head = this.queue[0];
    record.processes[String(shared.pid)] = {
      startedAt: this.startedAt,
      seenAt: at,
      inFlight: this.inFlight,
      queued: this.queue.length,
      waitingSince: head?.queuedAt,
      grants: this.granted,
    };
    this.publishedWaitingSince = head?.queuedAt;
  }

  /** A --debug line for a wait that other processes caused. */
  private explainWait(waiter: Waiter, at: number): void {
    const waited = `${Math.round(at - waiter.queuedAt)} ms`;
    const ahead = this.othersGranted - waiter.othersBefore;
    const self = this.shared?.pid;
    if (ahead > 0) {
      const processes = this.others.pids.length;
      this.say(
        `⧗ waited ${waited} for this key's rate limit: ${ahead} request${ahead === 1 ? '' : 's'} of ` +
          `${processes <= 1 ? 'another svc process' : `${processes} other svc processes`} went first`,
      );
    } else if (this.pausedBy !== undefined && this.pausedBy !== self && this.pausedUntil > waiter.queuedAt) {
      this.say(
        `⧗ waited ${waited}: svc process ${this.pausedBy} was answered 429, and the whole key waits its Retry-After`,
      );
    }
  }

  private stopSharing(reason: unknown): void {
    if (!this.shared) return;
    this.shared = undefined;
    this.others = NOBODY;
    this.publishedWaitingSince = undefined;
    this.say(`pacing no longer shared with other svc processes: ${(reason as Error)?.message ?? reason}`);
  }

  /** Answers without rate-limit headers leave nothing to share: leave the record. */
  private async stopSharingQuietly(): Promise<void> {
    if (!this.shared) return;
    await this.close();
    this.shared = undefined;
    this.others = NOBODY;
  }

  private say(line: string): void {
    try {
      this.debugLine?.(line);
    } catch {
      // A lost debug line must not cost a request.
    }
  }
}

/** The bucket facts of an answer's headers, or undefined when it carries none (401, /status). */
function rateFacts(answer: PacerAnswer, receivedAt: number): BucketAnswer | undefined {
  const { headers } = answer;
  const limit = headerNumber(headers[RATE_LIMIT_HEADERS.limit]);
  const remaining = headerNumber(headers[RATE_LIMIT_HEADERS.remaining]);
  if (limit === undefined || limit <= 0 || remaining === undefined) return undefined;
  const reset = headerNumber(headers[RATE_LIMIT_HEADERS.reset]);
  return {
    limit,
    remaining: Math.max(0, Math.min(limit, remaining)),
    resetAt: reset === undefined ? undefined : localTime(reset, headers.date, receivedAt),
    admitted: answer.status !== 429,
  };
}

/** X-RateLimit-Reset (server Unix seconds) on our clock, corrected when the Date header shows skew. */
function localTime(resetSeconds: number, date: string | undefined, receivedAt: number): number {
  const serverNow = date ? Date.parse(date) : Number.NaN;
  // Date has whole seconds, so only a skew well beyond a second is worth correcting.
  const skew = Number.isNaN(serverNow) ? 0 : serverNow - receivedAt;
  return resetSeconds * 1000 - (Math.abs(skew) > 2000 ? skew : 0);
}

function headerNumber(value: string | undefined): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const number = Number(value);
  return Number.isFinite(number) ? number : undefined;
}

/** Unix milliseconds with sub-millisecond precision, so that an answer and a send rarely tie. */
export function preciseNow(): number {
  return performance.timeOrigin + performance.now();
}

/** setTimeout as a promise, rejected with the signal's reason when aborted. */
export function defaultSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
