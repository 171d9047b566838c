/**
 * How long a bulk run has left. When the rate limit sets the pace, the remaining requests go at
 * the pacer's sustained rate (the drain it proved), less what the bucket still holds; otherwise
 * at the throughput of the last few seconds. Never a cumulative average: that counts the
 * initial burst, and promised "3s" with 40 s to go.
 */

/** What the pacer says now (src/client/pacing/pacer.ts, read through ApiClient.pacing()). */
export interface PaceReading {
  /** Requests per second the pacer sustains once the burst is spent. */
  perSecond?: number;
  /** Requests have waited for the rate limit lately. */
  limited: boolean;
}

/** Progress so far, as the estimate needs it. */
export interface EtaInput {
  total: number;
  done: number;
  /** Items per request, as answered so far. */
  itemsPerRequest: number;
  /** Items per second over the last few seconds. */
  recentPerSecond?: number;
  /** Answers per second since requests began to wait for the rate limit (the burst left out). */
  answersPerSecond?: number;
  pace?: PaceReading;
}

/**
 * Seconds left, or undefined while nothing tells yet; `paced` when the rate limit sets it, with
 * the sustained rate in requests per second: the answers measured since requests began to wait
 * for the drain, once that spans long enough to tell; until then the pacer's proven drain.
 */
export function estimateRemaining(
  input: EtaInput,
): { seconds: number; paced: boolean; perSecond?: number } | undefined {
  const remainingItems = Math.max(0, input.total - input.done);
  if (remainingItems === 0) return { seconds: 0, paced: false };
  const pace = input.pace;
  const perSecond = input.answersPerSecond ?? pace?.perSecond ?? 0;
  if (pace?.limited && perSecond > 0 && input.itemsPerRequest > 0) {
    // Each remaining request waits for its unit of drain: the bucket is spent by then.
    const requests = Math.ceil(remainingItems / input.itemsPerRequest);
    return { seconds: requests / perSecond, paced: true, perSecond };
  }
  if (input.recentPerSecond && input.recentPerSecond > 0)
    return { seconds: remainingItems / input.recentPerSecond, paced: false };
  return undefined;
}

/** Items per second over a sliding window of the last `windowMs`, once it spans `minSpanMs`. */
export class RecentRate {
  private readonly points: Array<{ at: number; done: number }> = [];

  constructor(
    private readonly windowMs = 5000,
    private readonly minSpanMs = 0,
  ) {}

  add(at: number, done: number): void {
    this.points.push({ at, done });
    while (this.points.length > 2 && this.points[0].at < at - this.windowMs) this.points.shift();
  }

  perSecond(): number | undefined {
    const first = this.points[0];
    const last = this.points[this.points.length - 1];
    if (!first || !last || last.at <= first.at || last.at - first.at < this.minSpanMs) return undefined;
    return ((last.done - first.done) * 1000) / (last.at - first.at);
  }
}
