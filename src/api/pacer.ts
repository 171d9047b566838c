/**
 * A client-side model of the service's leaky bucket (CONTRACT.md, Rate limit), shared by
 * every request of one client, so that a lone client never sees a 429: it spends the burst
 * at once, then sends at the drain rate.
 *
 * It keeps an upper bound on the server's bucket level. Every answer's X-RateLimit-Remaining
 * re-anchors the bound (the server is the truth); between answers the bound drains at a rate
 * that is a proven lower bound on the real drain, learned from how Remaining refilled between
 * our own requests. Holding the bucket near full is what makes a rate under-estimate cost
 * nothing: the drain is never wasted, and a Remaining above zero releases the next request.
 */
import { INITIAL_DRAIN_RATIO, RATE_LIMIT_HEADERS } from './contract.js';

/** Clock and tuning of a pacer; all injectable for tests. */
export interface PacerOptions {
  now?: () => number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Requests allowed in flight before the first answer tells the bucket size. */
  initialConcurrency?: number;
  /** Fraction of the learned drain rate used, against timer and rounding slop. */
  safety?: number;
  /** Answers remembered for learning the drain rate. */
  history?: number;
}

/** Permission to send one request; hand it back to observe() or release(). */
export interface PacerTicket {
  readonly id: number;
  /** When the request was let go (pacer clock, ms). */
  readonly sentAt: number;
  /** Answers received before this ticket was granted: those requests were processed before it. */
  readonly answeredBefore: number;
}

/** An answer as the pacer needs it. */
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

interface Sample {
  remaining: number;
  limit: number;
  sentAt: number;
  receivedAt: number;
  /** The best proven lower bound on the drain rate found when this answer arrived. */
  drainLowerBound: number;
}

interface Anchor {
  /** Upper bound on the bucket level at `at`, counting requests that may not have reached it yet. */
  level: number;
  at: number;
  /** X-RateLimit-Reset: from then on one more request fits, unless `grantsAfter` took it. */
  fitsAt?: number;
  grantsAfter: number;
}

interface Waiter {
  resolve: (ticket: PacerTicket) => void;
  reject: (reason: unknown) => void;
  signal?: AbortSignal;
  onAbort?: () => void;
  queuedAt: number;
}

const IDLE_RECHECK_MS = 60_000;
const ANSWER_RING = 256;

/** The shared leaky-bucket pacer of one client. */
export class Pacer {
  private readonly now: () => number;
  private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  private readonly initialConcurrency: number;
  private readonly safety: number;
  private readonly historySize: number;
  private bucket?: number;
  private priorDrain?: number;
  private anchor?: Anchor;
  private samples: Sample[] = [];
  private pausedUntil = 0;
  private granted = 0;
  private answered = 0;
  /** When each recent answer arrived, by answer number (a ring of the last ANSWER_RING). */
  private readonly answerTimes: number[] = [];
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
    this.safety = options.safety ?? 0.95;
    this.historySize = options.history ?? 64;
  }

  /** Resolves when one more request may be sent; waiters are served first come, first served. */
  acquire(signal?: AbortSignal): Promise<PacerTicket> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise((resolve, reject) => {
      const waiter: Waiter = { resolve, reject, signal, queuedAt: this.now() };
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

  /** Learn from an answer that reached us (any status; headers with lower-case names). */
  observe(ticket: PacerTicket, answer: PacerAnswer, receivedAt = this.now()): void {
    this.finish(receivedAt);
    const limit = headerNumber(answer.headers[RATE_LIMIT_HEADERS.limit]);
    const remaining = headerNumber(answer.headers[RATE_LIMIT_HEADERS.remaining]);
    const rateLimited = answer.rateLimited ?? false;
    if (limit !== undefined && limit > 0 && remaining !== undefined) {
      if (this.bucket !== limit) {
        this.bucket = limit;
        this.priorDrain = limit * INITIAL_DRAIN_RATIO;
      }
      if (rateLimited && this.believedFit(ticket)) {
        // Our model let this one go and the bucket was full: trust the model less.
        this.priorDrain = (this.priorDrain ?? limit * INITIAL_DRAIN_RATIO) / 2;
        this.samples = [];
      }
      this.reanchor(ticket, limit, Math.max(0, remaining), answer.headers, receivedAt);
      // A 429 (rate limit or write quota) took no unit of the bucket, so it says nothing of the drain.
      if (answer.status !== 429) this.learn(ticket, limit, Math.max(0, remaining), receivedAt);
    }
    if (rateLimited) this.pause(receivedAt + (answer.retryAfterMs ?? 1000));
    this.wake();
  }

  /** Hand back a ticket whose request got no answer (network failure); it may still have counted. */
  release(_ticket: PacerTicket): void {
    this.finish(this.now());
    this.wake();
  }

  /** Hold every request until `untilMs` (a 429's Retry-After). */
  pause(untilMs: number): void {
    this.pausedUntil = Math.max(this.pausedUntil, untilMs);
    this.wake();
  }

  /** The current drain rate in use (requests per second), once the bucket is known. */
  drainRate(): number | undefined {
    if (this.priorDrain === undefined) return undefined;
    const learned = this.learnedDrain();
    return Math.max(this.priorDrain, learned * this.safety);
  }

  /** Milliseconds until the next request may go at `at`; Infinity while only an answer can tell. */
  delayMs(at = this.now()): number {
    if (at < this.pausedUntil) return this.pausedUntil - at;
    if (this.bucket === undefined)
      return this.inFlight < this.initialConcurrency ? 0 : Number.POSITIVE_INFINITY;
    const anchor = this.anchor;
    if (anchor === undefined) return 0;
    const fitLevel = this.bucket - 1;
    const rate = this.drainRate() ?? 0;
    let readyAt = rate > 0 ? anchor.at + ((anchor.level - fitLevel) * 1000) / rate : Number.POSITIVE_INFINITY;
    if (anchor.fitsAt !== undefined && anchor.grantsAfter === 0) readyAt = Math.min(readyAt, anchor.fitsAt);
    // Timers may fire a millisecond early; a request sent too soon costs a 429.
    return readyAt <= at ? 0 : Math.ceil(readyAt - at) + 1;
  }

  /** What the pacer believes now. */
  snapshot(): PacerSnapshot {
    const at = this.now();
    return {
      bucket: this.bucket,
      drainPerSecond: this.drainRate(),
      learnedDrainPerSecond: this.samples.length > 0 ? this.learnedDrain() : undefined,
      levelBound: this.anchor ? this.levelAt(this.anchor, at) : undefined,
      inFlight: this.inFlight,
      queued: this.queue.length,
      pausedUntil: this.pausedUntil > at ? this.pausedUntil : undefined,
    };
  }

  private finish(at: number): void {
    this.answerTimes[this.answered % ANSWER_RING] = at;
    this.answered += 1;
    this.inFlight = Math.max(0, this.inFlight - 1);
  }

  private levelAt(anchor: Anchor, at: number): number {
    const rate = this.drainRate() ?? 0;
    let level = Math.max(0, anchor.level - (rate * (at - anchor.at)) / 1000);
    if (anchor.fitsAt !== undefined && at >= anchor.fitsAt && this.bucket !== undefined) {
      level = Math.min(level, this.bucket - 1 + anchor.grantsAfter);
    }
    return level;
  }

  private believedFit(ticket: PacerTicket): boolean {
    return this.anchor !== undefined && ticket.sentAt >= this.pausedUntil;
  }

  private reanchor(
    ticket: PacerTicket,
    limit: number,
    remaining: number,
    headers: Record<string, string>,
    at: number,
  ): void {
    // Requests other than this one not known to have been processed before it: an answer that
    // arrived before this request left was processed before it.
    let before = ticket.answeredBefore;
    const oldest = Math.max(0, this.answered - ANSWER_RING);
    while (
      before < this.answered &&
      before >= oldest &&
      this.answerTimes[before % ANSWER_RING] <= ticket.sentAt
    ) {
      before += 1;
    }
    const unseen = Math.max(0, this.granted - 1 - before);
    const resetSeconds = headerNumber(headers[RATE_LIMIT_HEADERS.reset]);
    const fitsAt =
      remaining === 0 && resetSeconds !== undefined ? this.localTime(resetSeconds, headers, at) : undefined;
    const candidate: Anchor = {
      level: limit - remaining + unseen,
      at,
      fitsAt: fitsAt !== undefined && fitsAt > at ? fitsAt : undefined,
      grantsAfter: unseen,
    };
    const current = this.anchor;
    if (!current) {
      this.anchor = candidate;
      return;
    }
    if (
      candidate.fitsAt !== undefined &&
      (current.fitsAt === undefined || candidate.fitsAt < current.fitsAt)
    ) {
      // Reset's promise holds whichever bound is kept.
      current.fitsAt = candidate.fitsAt;
      current.grantsAfter = candidate.grantsAfter;
    }
    const believed = this.levelAt(current, at);
    // The server saw more than B - Remaining - 1 in the bucket, less what drained on the way back.
    const latencyDrain = ((this.drainRate() ?? 0) * (at - ticket.sentAt)) / 1000;
    if (believed < limit - remaining - 1 - latencyDrain) {
      // Our bound drained faster than the bucket did: the assumed rate was too high.
      this.priorDrain = Math.max(this.learnedDrain() * this.safety, (this.priorDrain ?? 0) / 2);
      this.anchor = candidate;
    } else if (candidate.level < believed) {
      // Both are upper bounds; concurrent answers each count the others as unseen, so keep the least.
      this.anchor = candidate;
    }
  }

  /** X-RateLimit-Reset (server Unix seconds) on our clock, corrected when the Date header shows skew. */
  private localTime(resetSeconds: number, headers: Record<string, string>, receivedAt: number): number {
    const serverNow = headers.date ? Date.parse(headers.date) : Number.NaN;
    // Date has whole seconds, so only a skew well beyond a second is worth correcting.
    const skew = Number.isNaN(serverNow) ? 0 : serverNow - receivedAt;
    return resetSeconds * 1000 - (Math.abs(skew) > 2000 ? skew : 0);
  }

  /**
   * Between answers a and c the bucket drained at least (Rc - Ra + n - 1) units, n being the
   * requests certainly processed in between (the -1 covers Remaining's rounding down), over at
   * most c.receivedAt - a.sentAt. A full bucket only makes the true rate higher.
   */
  private learn(ticket: PacerTicket, limit: number, remaining: number, receivedAt: number): void {
    let best = 0;
    for (const a of this.samples) {
      if (a.limit !== limit) continue;
      let between = 1;
      for (const x of this.samples) {
        if (x.sentAt >= a.receivedAt && x.receivedAt <= ticket.sentAt) between += 1;
      }
      const drained = remaining - a.remaining + between - 1;
      const seconds = (receivedAt - a.sentAt) / 1000;
      if (drained > 0 && seconds > 0) best = Math.max(best, drained / seconds);
    }
    this.samples.push({ remaining, limit, sentAt: ticket.sentAt, receivedAt, drainLowerBound: best });
    if (this.samples.length > this.historySize) this.samples.shift();
  }

  private learnedDrain(): number {
    let best = 0;
    for (const sample of this.samples) best = Math.max(best, sample.drainLowerBound);
    return best;
  }

  private grant(waiter: Waiter, at: number): void {
    const ticket: PacerTicket = { id: this.granted, sentAt: at, answeredBefore: this.answered };
    this.granted += 1;
    this.inFlight += 1;
    const anchor = this.anchor;
    if (anchor) {
      anchor.level = this.levelAt(anchor, at) + 1;
      anchor.at = at;
      // Once past Reset its promise is folded into the level; before, this request spends it.
      if (anchor.fitsAt !== undefined && at >= anchor.fitsAt) anchor.fitsAt = undefined;
      else if (anchor.fitsAt !== undefined) anchor.grantsAfter += 1;
    }
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
          // Woken early by an answer or an abort: re-evaluate.
        } finally {
          this.wakeUp = undefined;
        }
      }
    } finally {
      this.pumping = false;
    }
  }
}

/** Unix milliseconds with sub-millisecond precision, so that an answer and a send rarely tie. */
export function preciseNow(): number {
  return performance.timeOrigin + performance.now();
}

function headerNumber(value: string | undefined): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const number = Number(value);
  return Number.isFinite(number) ? number : undefined;
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
