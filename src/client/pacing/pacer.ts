/**
 * The client-side pacer shared by every request of one client: it lets a request go when the
 * bucket model (bucket-model.ts) proves it fits, first come first served, so that a lone
 * client spends the burst at once, then holds the drain rate, and never sees a 429.
 *
 * With a SharedStore (record-file.ts, redis-store.ts) the model, the pause after a 429 and the
 * requests in flight and waiting belong to every `svc` process on the key: each step loads them
 * under the store's lock, so N processes together send at the drain rate, first come first
 * served, as one client would. Without one (SVC_SHARED_PACING=0, tests) everything stays in
 * this process. A store that fails is left: for the fallback store when there is one (Redis
 * lost: this machine's state file), and taken up again once it says it is available.
 */
import { BucketModel, bucketFacts } from './bucket-model.js';
import { defaultSleep, preciseNow } from './clock.js';
import type { SharedStore } from './record-file.js';
import { fairTurnDelay, type SharedRecord } from './shared-record.js';
import { SharedPacing } from './sharing.js';
import { StoreChoice } from './store-choice.js';

export { defaultSleep, preciseNow } from './clock.js';

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
  /** Where to share while `shared` is away (it says when it is back: SharedStore.available). */
  fallback?: SharedStore;
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
  /** The sharing's mark when it queued: how many requests of others went first. */
  mark: number;
}

const IDLE_RECHECK_MS = 60_000;
/** While other processes have requests out or waiting, their answers move our turn: look this often. */
const SHARED_POLL_MS = 10;
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
  /** The pacing state shared with the other processes on the key, while it is. */
  private sharing?: SharedPacing;
  /** Where the record is shared: the primary store, or the fallback while the primary is away. */
  private readonly stores: StoreChoice;
  /** The last turn left a free slot to an older waiter of another process. */
  private yielding = false;
  /** Steps applied to the shared record, in order (answers, releases, pauses). */
  private sharedSteps: Promise<void> = Promise.resolve();
  private readonly debugLine?: (line: string) => void;
  private readonly startedAt: number;
  /** Times a request had to wait, and for how long in all (ms). */
  waits = 0;
  waitedMs = 0;

  constructor(options: PacerOptions = {}) {
    this.now = options.now ?? preciseNow;
    this.sleep = options.sleep ?? defaultSleep;
    this.initialConcurrency = options.initialConcurrency ?? 1;
    this.model = new BucketModel(options.safety, options.history);
    this.debugLine = options.debug;
    this.startedAt = this.now();
    this.stores = new StoreChoice(options.shared, options.fallback);
    if (options.shared) this.sharing = this.shareWith(options.shared);
  }

  /** Resolves when one more request may be sent; waiters are served first come, first served. */
  acquire(signal?: AbortSignal): Promise<PacerTicket> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise((resolve, reject) => {
      const waiter: Waiter = { resolve, signal, queuedAt: this.now(), mark: this.sharing?.mark ?? 0 };
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
    this.update((now) => {
      this.inFlight = Math.max(0, this.inFlight - 1);
      const facts = bucketFacts(answer.status, answer.headers, receivedAt);
      if (facts) {
        // A 429 for a request our model let go means someone else spent the bucket.
        const surprised = answer.rateLimited === true && ticket.sentAt >= this.pausedUntil;
        const stillOut = this.inFlight + (this.sharing?.others.inFlight ?? 0);
        this.model.observe(ticket.sentAt, receivedAt, facts, stillOut, surprised, Math.max(now, receivedAt));
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
    await this.sharing?.leave();
    // Left for the fallback and back by now: the others need not wait out our last entry there.
    const { primary } = this.stores;
    if (primary && this.sharing?.store !== primary && primary.available?.())
      await this.shareWith(primary).leave();
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
      const out = this.inFlight + (this.sharing?.others.inFlight ?? 0);
      return out < allowed ? 0 : Number.POSITIVE_INFINITY;
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
      sharedWith: this.sharing?.others.pids.length,
    };
  }

  private grant(waiter: Waiter, at: number, record?: SharedRecord): void {
    const ticket: PacerTicket = { id: this.granted, sentAt: at };
    this.granted += 1;
    this.inFlight += 1;
    this.model.grant(at);
    if (record) this.sharing?.granted(record);
    if (at > waiter.queuedAt) {
      this.waits += 1;
      this.waitedMs += at - waiter.queuedAt;
      this.sharing?.explainWait(at - waiter.queuedAt, waiter.queuedAt, waiter.mark, this.pausedUntil);
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
      // Whether the last sleep was a mere look-again, before the time the model said.
      let early = false;
      while (this.queue.length > 0) {
        this.backToPrimary();
        const delay: number = this.sharing ? await this.sharedTurn(early) : this.localTurn();
        if (delay <= 0) continue;
        const recheck = this.sharing?.othersActive ? SHARED_POLL_MS : IDLE_RECHECK_MS;
        // A slot left to an older waiter of another process is looked at again without the
        // lock, too: taking it every few milliseconds only to leave it again cost Redis round trips.
        early = recheck < delay || this.yielding;
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
      if (this.sharing?.publishedWaitingSince !== undefined) this.update(() => {});
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

  /**
   * localTurn with the shared record, under its lock. A look-again before the time the model
   * said (`early`) first reads without the lock: it mostly finds that it is not time yet.
   */
  private async sharedTurn(early: boolean): Promise<number> {
    await this.sharedSteps;
    const sharing = this.sharing;
    const head = this.queue[0];
    if (!sharing || !head) return this.queue.length > 0 ? this.localTurn() : 0;
    try {
      // The others must know that we wait, though: that takes a write.
      if (early && head.queuedAt === sharing.publishedWaitingSince && (await sharing.peek())) {
        const delay = this.turnDelay(this.now(), head);
        if (delay > 0) return delay;
      }
      return await sharing.transact((at, record) => {
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
    this.yielding = false;
    const delay = this.delayMs(at);
    if (delay > 0 || this.model.bucket === undefined) return delay;
    const readySince = Math.max(this.pausedUntil, this.model.readySince());
    const yielded = this.sharing ? fairTurnDelay(at, readySince, head.queuedAt, this.sharing.others) : 0;
    this.yielding = yielded > 0;
    return yielded;
  }

  /** Applies a change now, or, when shared, in order under the lock; then looks at the queue again. */
  private update(change: (now: number) => void): void {
    this.backToPrimary();
    const sharing = this.sharing;
    if (!sharing) {
      change(this.now());
      this.wake();
      return;
    }
    let applied = false;
    const once = (now = this.now()) => {
      if (applied) return;
      applied = true;
      change(now);
    };
    this.sharedSteps = this.sharedSteps
      .then(() => (this.sharing ? this.sharing.transact(once) : once()))
      .catch((error) => {
        this.stopSharing(error);
        once();
      })
      .finally(() => {
        // Answers without rate-limit headers leave nothing to share.
        if (this.headerless && this.sharing === sharing) {
          this.sharing = undefined;
          void sharing.leave();
        }
        this.wake();
      });
  }

  /** The link to the record, lending it the model and taking the key's pause from it. */
  private shareWith(store: SharedStore, staleBefore?: number): SharedPacing {
    const pacer = {
      model: this.model,
      now: this.now,
      setPause: (untilMs: number) => {
        this.pausedUntil = untilMs;
      },
      part: () => ({
        pausedUntil: this.pausedUntil,
        entry: {
          startedAt: this.startedAt,
          inFlight: this.inFlight,
          queued: this.queue.length,
          waitingSince: this.queue[0]?.queuedAt,
          grants: this.granted,
        },
      }),
    };
    return new SharedPacing(store, pacer, (line) => this.say(line), staleBefore);
  }

  /**
   * Leaves the store that failed: the primary for the fallback (Redis lost: this machine's
   * file), which the pacer leaves again once the primary is back; else for pacing alone.
   */
  private stopSharing(reason: unknown): void {
    const failed = this.sharing;
    if (!failed) return;
    const why = (reason as Error)?.message ?? reason;
    const next = this.stores.afterFailure(failed.store, this.now());
    this.sharing = next.store && this.shareWith(next.store, next.staleBefore);
    this.say(
      next.store
        ? `pacing shared through ${next.store.where} while ${failed.store.where} is away: ${why}`
        : `pacing no longer shared with other svc processes: ${why}`,
    );
  }

  /** Takes the primary store up again once it is back, leaving the fallback's record. */
  private backToPrimary(): void {
    const back = this.stores.primaryBack();
    if (!back?.store) return;
    const left = this.sharing;
    this.sharing = this.shareWith(back.store, back.staleBefore);
    if (left) this.sharedSteps = this.sharedSteps.then(() => left.leave());
  }

  private say(line: string): void {
    try {
      this.debugLine?.(line);
    } catch {
      // A lost debug line must not cost a request.
    }
  }
}
