/** The three limits of the core: the leaky bucket per key, the daily write quota, idempotency. */
import { IDEMPOTENCY_RETENTION_MS, msUntilUtcMidnight } from '../../contract/contract.js';

// Float drift in drain arithmetic must not turn "exactly fits" into "does not fit".
const EPSILON = 1e-9;

/** What the bucket decided for one request, with the values of the three headers. */
export interface BucketDecision {
  admitted: boolean;
  limit: number;
  remaining: number;
  /** Unix second, rounded up, at which at least one more request fits. */
  resetSeconds: number;
  /** Whole seconds until one request fits (at least 1); set when not admitted. */
  retryAfterSeconds: number;
}

interface BucketState {
  level: number;
  atMs: number;
}

/** Leaky buckets per API key: size B, draining r units per second; each admitted request adds 1. */
export class LeakyBuckets {
  private readonly states = new Map<string, BucketState>();

  /** Admit or refuse one request of `key` at `nowMs`. */
  take(key: string, nowMs: number, size: number, drainPerSecond: number): BucketDecision {
    const level = this.levelAt(key, nowMs, drainPerSecond);
    const admitted = level + 1 <= size + EPSILON;
    const after = admitted ? level + 1 : level;
    this.states.set(key, { level: after, atMs: nowMs });
    const remaining = Math.max(0, Math.floor(size - after + EPSILON));
    // Seconds until the level has drained enough for one more unit to fit.
    const waitSeconds = Math.max(0, (after + 1 - size) / drainPerSecond);
    const resetSeconds =
      remaining > 0 ? Math.ceil(nowMs / 1000) : Math.ceil((nowMs + waitSeconds * 1000) / 1000);
    const retryAfterSeconds = Math.max(1, Math.ceil(waitSeconds - EPSILON));
    return { admitted, limit: size, remaining, resetSeconds, retryAfterSeconds };
  }

  /** The bucket's fill level of `key` at `nowMs` (0 when unknown). */
  levelAt(key: string, nowMs: number, drainPerSecond: number): number {
    const state = this.states.get(key);
    if (!state) return 0;
    const drained = (Math.max(0, nowMs - state.atMs) / 1000) * drainPerSecond;
    return Math.max(0, state.level - drained);
  }

  /** Forget every bucket. */
  clear(): void {
    this.states.clear();
  }
}

/** Successful channel-mutating writes per UTC day, for the one store the emulator serves. */
export class WriteQuota {
  private day = -1;
  private used = 0;

  constructor(public limit: number) {}

  private roll(nowMs: number): void {
    const day = Math.floor(nowMs / 86_400_000);
    if (day !== this.day) {
      this.day = day;
      this.used = 0;
    }
  }

  /** Seconds until the quota resets, when it is used up at `nowMs`; undefined while it lasts. */
  exhausted(nowMs: number): number | undefined {
    this.roll(nowMs);
    if (this.used < this.limit) return undefined;
    return Math.max(1, Math.ceil(msUntilUtcMidnight(nowMs) / 1000));
  }

  /** Count one successful write. */
  record(nowMs: number): void {
    this.roll(nowMs);
    this.used++;
  }

  /** Writes counted today as of `nowMs`. */
  usedAt(nowMs: number): number {
    this.roll(nowMs);
    return this.used;
  }

  /** Start the day over. */
  clear(): void {
    this.day = -1;
    this.used = 0;
  }
}

/** A stored answer to a request made with an Idempotency-Key. */
export interface StoredAnswer {
  fingerprint: string;
  status: number;
  body: unknown;
  headers: Record<string, string>;
  storedAtMs: number;
}

/** What the idempotency store says about a request. */
export type IdempotencyLookup =
  | { kind: 'miss' }
  | { kind: 'replay'; answer: StoredAnswer }
  | { kind: 'conflict'; answer: StoredAnswer };

/** Idempotency keys per API key, kept 24 hours. */
export class IdempotencyStore {
  private readonly answers = new Map<string, StoredAnswer>();

  private slot(apiKey: string, idempotencyKey: string): string {
    return `${apiKey}\u0000${idempotencyKey}`;
  }

  /** Whether a request with this fingerprint was answered before under the same keys. */
  lookup(apiKey: string, idempotencyKey: string, fingerprint: string, nowMs: number): IdempotencyLookup {
    const slot = this.slot(apiKey, idempotencyKey);
    const answer = this.answers.get(slot);
    if (!answer) return { kind: 'miss' };
    if (nowMs - answer.storedAtMs >= IDEMPOTENCY_RETENTION_MS) {
      this.answers.delete(slot);
      return { kind: 'miss' };
    }
    return answer.fingerprint === fingerprint ? { kind: 'replay', answer } : { kind: 'conflict', answer };
  }

  /** Keep an answer: 2xx and 4xx except 409 and 429; never 5xx, so a retry runs again. */
  save(apiKey: string, idempotencyKey: string, answer: StoredAnswer): void {
    const { status } = answer;
    const storable = (status >= 200 && status < 300) || (status >= 400 && status < 500);
    if (!storable || status === 409 || status === 429) return;
    this.answers.set(this.slot(apiKey, idempotencyKey), answer);
    if (this.answers.size % 1024 === 0) this.purge(answer.storedAtMs);
  }

  /** Drop answers older than the retention. */
  purge(nowMs: number): void {
    for (const [slot, answer] of this.answers) {
      if (nowMs - answer.storedAtMs >= IDEMPOTENCY_RETENTION_MS) this.answers.delete(slot);
    }
  }

  /** Forget every key. */
  clear(): void {
    this.answers.clear();
  }
}

/** A request's identity for idempotency: method, path and body compared as parsed JSON. */
export function fingerprint(method: string, path: string, body: unknown): string {
  return `${method} ${path} ${canonicalJson(body)}`;
}

/** JSON with object keys sorted, so `{a,b}` and `{b,a}` compare equal. */
export function canonicalJson(value: unknown): string {
  if (value === undefined) return 'null';
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.keys(value as Record<string, unknown>)
    .sort()
    .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`);
  return `{${entries.join(',')}}`;
}
