/** The service's leaky bucket as the contract describes it (docs/service-contract.md, Rate limit), driven by a test's clock. */

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
