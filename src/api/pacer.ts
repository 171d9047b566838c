/**
 * The client-side pacer shared by every request of one client: it lets a request go when the
 * bucket model (bucket-model.ts) proves it fits, first come first served, so that a lone
 * client spends the burst at once, then holds the drain rate, and never sees a 429.
 */
import { type BucketAnswer, BucketModel } from './bucket-model.js';
import { RATE_LIMIT_HEADERS } from './contract.js';

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
}

interface Waiter {
  resolve: (ticket: PacerTicket) => void;
  signal?: AbortSignal;
  onAbort?: () => void;
  queuedAt: number;
}

const IDLE_RECHECK_MS = 60_000;
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
  /** Times a request had to wait, and for how long in all (ms). */
  waits = 0;
  waitedMs = 0;

  constructor(options: PacerOptions = {}) {
    this.now = options.now ?? preciseNow;
    this.sleep = options.sleep ?? defaultSleep;
    this.initialConcurrency = options.initialConcurrency ?? 1;
    this.model = new BucketModel(options.safety, options.history);
  }

  /** Resolves when one more request may be sent; waiters are served first come, first served. */
  acquire(signal?: AbortSignal): Promise<PacerTicket> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise((resolve, reject) => {
      const waiter: Waiter = { resolve, signal, queuedAt: this.now() };
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
    this.inFlight = Math.max(0, this.inFlight - 1);
    const facts = rateFacts(answer, receivedAt);
    if (facts) {
      // A 429 for a request our model let go means the rate in use was too high.
      const surprised = answer.rateLimited === true && ticket.sentAt >= this.pausedUntil;
      this.model.observe(ticket.sentAt, receivedAt, facts, this.inFlight, surprised);
    } else {
      this.model.release(ticket.sentAt, receivedAt);
      // 401s and the unauthenticated endpoints never carry the headers; other answers should.
      if (answer.status !== 401 && answer.status < 500) this.headerless = true;
    }
    if (answer.rateLimited) this.pause(receivedAt + (answer.retryAfterMs ?? 1000));
    this.wake();
  }

  /** Hand back a ticket whose request got no answer (network failure); it may still have counted. */
  release(ticket: PacerTicket): void {
    this.inFlight = Math.max(0, this.inFlight - 1);
    this.model.release(ticket.sentAt, this.now());
    this.wake();
  }

  /** Hold every request until `untilMs` (a 429's Retry-After). */
  pause(untilMs: number): void {
    this.pausedUntil = Math.max(this.pausedUntil, untilMs);
    this.wake();
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
      return this.inFlight < allowed ? 0 : Number.POSITIVE_INFINITY;
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
    };
  }

  private grant(waiter: Waiter, at: number): void {
    const ticket: PacerTicket = { id: this.granted, sentAt: at };
    this.granted += 1;
    this.inFlight += 1;
    this.model.grant(at);
    if (at > waiter.queuedAt) {
      this.waits += 1;
      this.waitedMs += at - waiter.queuedAt;
    }
    if (waiter.signal && waiter.onAbort) waiter.signal.removeEventListener('abort', waiter.onAbort);
    waiter.resolve(ticket);
  }

  private wake(): void {
    this.wakeUp?.abort();
  }

  private async pump(): Promise<void> {
    if (this.pumping) return;
    this.pumping = true;
    try {
      while (this.queue.length > 0) {
        const at = this.now();
        const delay = this.delayMs(at);
        if (delay <= 0) {
          this.grant(this.queue.shift()!, at);
          continue;
        }
        this.wakeUp = new AbortController();
        try {
          await this.sleep(Math.min(delay, IDLE_RECHECK_MS), this.wakeUp.signal);
        } catch {
          // Woken early by an answer or an abort: look again.
        } finally {
          this.wakeUp = undefined;
        }
      }
    } finally {
      this.pumping = false;
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
