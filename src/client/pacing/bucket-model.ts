/**
 * What a client can prove about the service's leaky bucket (docs/service-contract.md, Rate limit) from the
 * rate-limit headers of its own answers: an upper bound on the bucket level, and a lower bound
 * on the drain rate. Pure: times are passed in (ms).
 *
 * Every answer re-anchors the level bound (the server is the truth); between answers it drains
 * at the rate in use, the larger of the tier's B/20 and a proven lower bound on the real drain.
 * Holding the bucket near full makes an under-estimate cost nothing: the drain is never wasted,
 * and a Remaining above zero releases the next request at once.
 *
 * Other clients of the same key (jobs on other machines) spend the bucket unseen. An answer
 * that shows less room than the bound allows, a 429 above all, says so: the level re-anchors on
 * that answer's headers and the drain stays what the tier and the proofs say, since another
 * client's requests make the drain no slower. (Halving the rate instead made the waits double
 * with each 429: 1, 2, 4, 8 s with the bucket nearly empty.)
 */
import { INITIAL_DRAIN_RATIO, RATE_LIMIT_HEADERS } from '../../contract/contract.js';

/** One answer's rate-limit facts. */
export interface BucketAnswer {
  limit: number;
  remaining: number;
  /** X-RateLimit-Reset on the client's clock (ms), when sent. */
  resetAt?: number;
  /** The bucket took a unit for it (any answer but a 429). */
  admitted: boolean;
}

/** Everything a model knows, as plain JSON: what processes sharing a key hand each other. */
export interface BucketModelState {
  bucket?: number;
  prior?: number;
  anchor?: Anchor;
  recent: Finished[];
  samples: Sample[];
}

interface Finished {
  sentAt: number;
  finishedAt: number;
  /** Undefined for a request that got no answer, or one without rate-limit headers. */
  answer?: BucketAnswer;
}

interface Sample {
  remaining: number;
  sentAt: number;
  receivedAt: number;
  /** The best proven lower bound on the drain rate found when this answer arrived. */
  drainLowerBound: number;
}

interface Anchor {
  /** Upper bound on the bucket level at `at`, counting requests that may not have reached it yet. */
  level: number;
  at: number;
  /**
   * Requests went into a bucket that may have been empty: it drains only once they reach it,
   * and one may take long to (a new connection). So nothing drains until they are answered:
   * this counts them (the level re-anchors on each answer meanwhile).
   */
  held?: number;
  /** X-RateLimit-Reset: from then on one more request fits, unless `grantsAfter` took it. */
  fitsAt?: number;
  grantsAfter: number;
  /**
   * Requests in `level` of processes that died before their answers came (reclaim): no answer
   * will ever re-anchor on them, so from `probeAt` one request may go to learn the level.
   */
  reclaimed?: number;
  probeAt?: number;
}

/**
 * How long a request may take to reach the service when the bucket is low: a new connection
 * (TCP, TLS, the first request's parser) rather than a reused one. Below the drain of this
 * time, a grant holds the drain until an answer (see Anchor.held).
 */
const HOLD_TRANSIT_MS = 250;

/** The level bound and the drain estimate of one client's bucket. */
export class BucketModel {
  bucket?: number;
  /** The tier's drain, B/20 (no header names it: docs/service-contract.md, Rate limit). */
  private prior?: number;
  private anchor?: Anchor;
  private recent: Finished[] = [];
  private samples: Sample[] = [];

  constructor(
    /** Fraction of the learned drain rate used, against timer and rounding slop. */
    private readonly safety = 0.95,
    /** Answers remembered. */
    private readonly historySize = 64,
  ) {}

  /** The drain rate in use (per second), once the bucket is known. */
  drainRate(): number | undefined {
    if (this.prior === undefined) return undefined;
    return Math.max(this.prior, this.learnedDrain() * this.safety);
  }

  /** The best proven lower bound on the drain rate so far (0 before any). */
  learnedDrain(): number {
    let best = 0;
    for (const sample of this.samples) best = Math.max(best, sample.drainLowerBound);
    return best;
  }

  /** Upper bound on the bucket level at `at`, once an answer told anything. */
  levelAt(at: number): number | undefined {
    const anchor = this.anchor;
    if (!anchor) return undefined;
    const drained = anchor.held ? 0 : ((this.drainRate() ?? 0) * (at - anchor.at)) / 1000;
    let level = Math.max(0, anchor.level - drained);
    if (anchor.fitsAt !== undefined && at >= anchor.fitsAt && this.bucket !== undefined) {
      level = Math.min(level, this.bucket - 1 + anchor.grantsAfter);
    }
    return level;
  }

  /** Milliseconds from `at` until one more request surely fits (0: now). */
  delayMs(at: number): number {
    const readyAt = this.readyAt();
    // Timers may fire a millisecond early; a request sent too soon costs a 429.
    return readyAt <= at ? 0 : Math.ceil(readyAt - at) + 1;
  }

  /** When one more request surely fits (-Infinity before any answer told the level). */
  readyAt(): number {
    const anchor = this.anchor;
    if (!anchor || this.bucket === undefined) return Number.NEGATIVE_INFINITY;
    const rate = this.drainRate() ?? 0;
    const fitLevel = this.bucket - 1;
    const drains = rate > 0 && (!anchor.held || anchor.level <= fitLevel);
    let readyAt = drains ? anchor.at + ((anchor.level - fitLevel) * 1000) / rate : Number.POSITIVE_INFINITY;
    if (anchor.fitsAt !== undefined && anchor.grantsAfter === 0) readyAt = Math.min(readyAt, anchor.fitsAt);
    // Without the requests of the dead there would be room: one request, and its answer, tell
    // whether they took it. (Waiting for the level to drain at the tier's rate, B/20 where the
    // service may drain far faster, held every process on the key for seconds.)
    if (anchor.probeAt !== undefined && !anchor.held && rate > 0) {
      const roomAt = anchor.at + ((anchor.level - (anchor.reclaimed ?? 0) - fitLevel) * 1000) / rate;
      readyAt = Math.min(readyAt, Math.max(anchor.probeAt, roomAt));
    }
    return readyAt;
  }

  /**
   * Since when the model has shown room for one more request: readyAt, or the answer or grant
   * that revealed room already there. (Processes sharing a key count their grace from it.)
   */
  readySince(): number {
    return Math.max(this.readyAt(), this.anchor?.at ?? Number.NEGATIVE_INFINITY);
  }

  /** A copy of what the model knows. */
  save(): BucketModelState {
    const { bucket, prior, anchor, recent, samples } = this;
    return { bucket, prior, anchor: anchor && { ...anchor }, recent: [...recent], samples: [...samples] };
  }

  /** Takes over what another model saved; anything malformed starts the model afresh. */
  load(state: BucketModelState | undefined): void {
    const valid = state !== undefined && isModelState(state);
    this.bucket = valid ? state.bucket : undefined;
    this.prior = valid ? state.prior : undefined;
    this.anchor = valid && state.anchor ? { ...state.anchor } : undefined;
    this.recent = valid ? state.recent.slice(-this.historySize) : [];
    this.samples = valid ? state.samples.slice(-this.historySize) : [];
  }

  /** One more request went out at `at`. */
  grant(at: number): void {
    const anchor = this.anchor;
    if (!anchor) return;
    // Its answer tells the level, with or without what the dead sent: one probe is enough.
    anchor.probeAt = undefined;
    anchor.reclaimed = undefined;
    const before = this.levelAt(at) ?? 0;
    anchor.level = before + 1;
    anchor.at = at;
    // A bucket this low may drain to empty before the request arrives, and then waits for it.
    if (anchor.held || before < Math.max(1, ((this.drainRate() ?? 0) * HOLD_TRANSIT_MS) / 1000)) {
      anchor.held = (anchor.held ?? 0) + 1;
    }
    // Once past Reset its promise is folded into the level; before it, this request spends it.
    if (anchor.fitsAt !== undefined && at >= anchor.fitsAt) anchor.fitsAt = undefined;
    else if (anchor.fitsAt !== undefined) anchor.grantsAfter += 1;
  }

  /** A request sent at `sentAt` ended at `at` without rate-limit facts (no answer, or no headers). */
  release(sentAt: number, at: number): void {
    this.remember({ sentAt, finishedAt: at });
    // No answer will come for this one: it no longer holds the drain.
    if (this.anchor) this.anchor.held = heldAfterOne(this.anchor.held);
  }

  /**
   * `count` requests of a process that died (or stopped) with them out, its last one sent by
   * `sentBy`, end at `at` without answers. They stay in the level bound, since they may have
   * reached the service; once they surely have (HOLD_TRANSIT_MS after `sentBy`), one request
   * may go to learn the level if only they stand in its way.
   */
  reclaim(count: number, sentBy: number, at: number): void {
    if (count <= 0) return;
    for (let i = 0; i < count; i += 1) this.release(sentBy, at);
    const anchor = this.anchor;
    if (!anchor) return;
    anchor.reclaimed = (anchor.reclaimed ?? 0) + count;
    anchor.probeAt = Math.max(anchor.probeAt ?? Number.NEGATIVE_INFINITY, sentBy + HOLD_TRANSIT_MS);
  }

  /**
   * Learn from an answer received at `at`, taken in at `now` (later, when processes sharing the
   * key wait on each other's lock). `inFlight` counts the requests still out at `now`;
   * `surprised` says a 429 came for a request the model let go: someone else spent the bucket,
   * so the level bound re-anchors on this answer whatever it believed.
   */
  observe(
    sentAt: number,
    at: number,
    answer: BucketAnswer,
    inFlight: number,
    surprised = false,
    now = at,
  ): void {
    if (this.bucket !== answer.limit) {
      this.bucket = answer.limit;
      this.prior = answer.limit * INITIAL_DRAIN_RATIO;
      this.samples = [];
      this.recent = [];
    }
    this.remember({ sentAt, finishedAt: at, answer });
    // Anchored at `now`: answers taken in meanwhile may be newer than this one, and their
    // Remaining holds then, not at `at`.
    const candidate = this.boundFromAnswers(inFlight, now);
    // While held, each answer re-anchors (its bound counts every request still out).
    const held = heldAfterOne(this.anchor?.held);
    if (surprised || this.anchor?.held) this.anchor = { ...candidate, held };
    else this.reanchor(candidate, answer, sentAt, at, now);
    // A 429 took no unit of the bucket, so it says nothing of the drain.
    if (answer.admitted) this.learn(sentAt, at, answer.remaining);
  }

  private remember(finished: Finished): void {
    this.recent.push(finished);
    if (this.recent.length > this.historySize) this.recent.shift();
  }

  /**
   * The last request the server processed among those answered is one that no answered request
   * was sent after; its Remaining is at least the least of theirs. Only requests still out, or
   * lost after those were sent, can have been added since.
   */
  private boundFromAnswers(inFlight: number, at: number): Anchor {
    const answered = this.recent.filter((r) => r.answer !== undefined);
    const last = answered.filter((x) => !answered.some((y) => y !== x && y.sentAt >= x.finishedAt));
    let least = Number.POSITIVE_INFINITY;
    let earliestSent = Number.POSITIVE_INFINITY;
    // Whichever of them was last, one more fits by the latest of their Reset times.
    let fitsAt = Number.NEGATIVE_INFINITY;
    let resetKnown = true;
    for (const x of last) {
      const answer = x.answer as BucketAnswer;
      least = Math.min(least, answer.remaining);
      earliestSent = Math.min(earliestSent, x.sentAt);
      if (answer.remaining > 0) continue;
      if (answer.resetAt === undefined) resetKnown = false;
      else fitsAt = Math.max(fitsAt, answer.resetAt);
    }
    const lost = this.recent.filter((r) => r.answer === undefined && r.finishedAt > earliestSent).length;
    const after = inFlight + lost;
    const usable = least === 0 && resetKnown && fitsAt > at ? fitsAt : undefined;
    return { level: (this.bucket ?? 0) - least + after, at, fitsAt: usable, grantsAfter: after };
  }

  private reanchor(candidate: Anchor, answer: BucketAnswer, sentAt: number, at: number, now: number): void {
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
    const believed = this.levelAt(now) ?? 0;
    // The server saw more than B - Remaining - 1 in the bucket, less what drained on the way back.
    const onTheWay = ((this.drainRate() ?? 0) * (at - sentAt)) / 1000;
    if (believed < answer.limit - answer.remaining - 1 - onTheWay) {
      // More in the bucket than we put there: another client of the key. The headers are the truth.
      this.anchor = candidate;
    } else if (candidate.level < believed) {
      this.anchor = candidate;
    }
  }

  /**
   * Between answers a and c the bucket drained at least (Rc - Ra + n - 1) units, n being the
   * requests certainly processed in between (the -1 covers Remaining's rounding down), over at
   * most c.receivedAt - a.sentAt. A bucket that ran empty only makes the true rate higher.
   */
  private learn(sentAt: number, receivedAt: number, remaining: number): void {
    let best = 0;
    for (const a of this.samples) {
      // Only an answer that arrived before this request left was surely processed before it.
      if (a.receivedAt > sentAt) continue;
      let between = 1;
      for (const x of this.samples) {
        if (x.sentAt >= a.receivedAt && x.receivedAt <= sentAt) between += 1;
      }
      const drained = remaining - a.remaining + between - 1;
      const seconds = (receivedAt - a.sentAt) / 1000;
      if (drained > 0 && seconds > 0) best = Math.max(best, drained / seconds);
    }
    this.samples.push({ remaining, sentAt, receivedAt, drainLowerBound: best });
    if (this.samples.length > this.historySize) this.samples.shift();
  }
}

/** The bucket facts of an answer's headers, or undefined when it carries none (401, /status). */
export function bucketFacts(
  status: number,
  headers: Record<string, string>,
  receivedAt: number,
): BucketAnswer | undefined {
  const limit = headerNumber(headers[RATE_LIMIT_HEADERS.limit]);
  const remaining = headerNumber(headers[RATE_LIMIT_HEADERS.remaining]);
  if (limit === undefined || limit <= 0 || remaining === undefined) return undefined;
  const reset = headerNumber(headers[RATE_LIMIT_HEADERS.reset]);
  return {
    limit,
    remaining: Math.max(0, Math.min(limit, remaining)),
    resetAt: reset === undefined ? undefined : localTime(reset, headers.date, receivedAt),
    admitted: status !== 429,
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

/** A hold with one request fewer to wait for; undefined once none is left. */
function heldAfterOne(held: number | undefined): number | undefined {
  return held !== undefined && held > 1 ? held - 1 : undefined;
}

const isNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);
const isOptionalNumber = (value: unknown) => value === undefined || isNumber(value);
const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Whether a value read from disk has the shape of a saved model (numbers finite). */
function isModelState(value: unknown): value is BucketModelState {
  if (!isRecord(value) || !isOptionalNumber(value.bucket) || !isOptionalNumber(value.prior)) return false;
  const { anchor, recent, samples } = value;
  if (
    anchor !== undefined &&
    !(
      isRecord(anchor) &&
      isNumber(anchor.level) &&
      isNumber(anchor.at) &&
      isOptionalNumber(anchor.fitsAt) &&
      isNumber(anchor.grantsAfter) &&
      isOptionalNumber(anchor.held) &&
      isOptionalNumber(anchor.reclaimed) &&
      isOptionalNumber(anchor.probeAt)
    )
  ) {
    return false;
  }
  const finished = (x: unknown) =>
    isRecord(x) &&
    isNumber(x.sentAt) &&
    isNumber(x.finishedAt) &&
    (x.answer === undefined ||
      (isRecord(x.answer) &&
        isNumber(x.answer.limit) &&
        isNumber(x.answer.remaining) &&
        isOptionalNumber(x.answer.resetAt) &&
        typeof x.answer.admitted === 'boolean'));
  const sample = (x: unknown) =>
    isRecord(x) &&
    isNumber(x.remaining) &&
    isNumber(x.sentAt) &&
    isNumber(x.receivedAt) &&
    isNumber(x.drainLowerBound);
  return Array.isArray(recent) && recent.every(finished) && Array.isArray(samples) && samples.every(sample);
}
