/** The service's leaky bucket as the contract describes it (docs/service-contract.md, Rate limit), driven by a test's clock. */
import type { Pacer } from '../../../../src/client/pacing/pacer.js';
import type { FakeClock } from '../fake-clock.js';

/** One answer's status and rate-limit headers. */
export interface SimAnswer {
  status: number;
  headers: Record<string, string>;
  retryAfterMs?: number;
}

/** Bucket of size B draining r per second; a request that would overflow is a 429 and takes nothing. */
export class BucketSim {
  level = 0;
  admitted = 0;
  rejected = 0;
  private last?: number;

  constructor(
    readonly bucket: number,
    readonly drainPerSecond: number,
  ) {}

  /** The server's answer to one request processed at `at` (ms). */
  handle(at: number): SimAnswer {
    this.drain(at);
    const headers: Record<string, string> = { 'x-ratelimit-limit': String(this.bucket) };
    if (this.level + 1 > this.bucket + 1e-9) {
      this.rejected += 1;
      const waitMs = ((this.level + 1 - this.bucket) / this.drainPerSecond) * 1000;
      const retryAfter = Math.max(1, Math.ceil(waitMs / 1000));
      headers['x-ratelimit-remaining'] = '0';
      headers['x-ratelimit-reset'] = String(Math.ceil((at + waitMs) / 1000));
      headers['retry-after'] = String(retryAfter);
      return { status: 429, headers, retryAfterMs: retryAfter * 1000 };
    }
    this.level += 1;
    this.admitted += 1;
    const remaining = Math.floor(this.bucket - this.level + 1e-9);
    headers['x-ratelimit-remaining'] = String(remaining);
    const fitsInMs = remaining > 0 ? 0 : ((this.level - (this.bucket - 1)) / this.drainPerSecond) * 1000;
    headers['x-ratelimit-reset'] = String(Math.ceil((at + fitsInMs) / 1000));
    return { status: 200, headers };
  }

  private drain(at: number): void {
    if (this.last !== undefined) {
      this.level = Math.max(0, this.level - (this.drainPerSecond * (at - this.last)) / 1000);
    }
    this.last = at;
  }
}

/** What `sendAll` saw. */
export interface SendResult {
  /** When each request left, on the clock. */
  sent: number[];
  rateLimited: number;
}

/** How `sendAll` sends. */
export interface SendOptions {
  total: number;
  /** Loops sending at once. */
  workers?: number;
  /** There and back, each way half. */
  latencyMs?: number;
  /** The way there of loop i's first request: a new connection is slow. */
  firstTransitMs?: number | ((loop: number) => number);
}

/**
 * Sends `total` requests through `pacer` to `sim` from `workers` loops, a 429 observed and
 * sent again. Resolves when all are answered; the caller drives the clock.
 */
export async function sendAll(
  pacer: Pacer,
  clock: FakeClock,
  sim: BucketSim,
  { total, workers = 1, latencyMs = 4, firstTransitMs }: SendOptions,
): Promise<SendResult> {
  const result: SendResult = { sent: [], rateLimited: 0 };
  let next = 0;
  const loop = async (_: unknown, index: number) => {
    const firstTransit = typeof firstTransitMs === 'function' ? firstTransitMs(index) : firstTransitMs;
    let connected = false;
    while (next < total) {
      next += 1;
      for (;;) {
        const ticket = await pacer.acquire();
        result.sent.push(clock.now());
        await clock.sleep(connected ? latencyMs / 2 : (firstTransit ?? latencyMs / 2));
        connected = true;
        const answer = sim.handle(clock.now());
        await clock.sleep(latencyMs / 2);
        const rateLimited = answer.status === 429;
        pacer.observe(ticket, { ...answer, rateLimited });
        if (!rateLimited) break;
        result.rateLimited += 1;
      }
    }
  };
  await Promise.all(Array.from({ length: workers }, loop));
  return result;
}

/** The longest time between two sends in a row. */
export function longestGap(times: number[]): number {
  let gap = 0;
  for (let i = 1; i < times.length; i += 1) gap = Math.max(gap, times[i] - times[i - 1]);
  return gap;
}
