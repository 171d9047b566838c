/** A manual clock for the pacer and the transport: time moves only when a test drives it. */

interface Timer {
  at: number;
  seq: number;
  resolve: () => void;
}

/** Lets every pending promise callback run. */
function flush(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** A fake `now` and `sleep`; sleeps resolve when the clock passes their deadline. */
export class FakeClock {
  private time: number;
  private seq = 0;
  private timers: Timer[] = [];

  constructor(start = 1_700_000_000_000) {
    this.time = start;
  }

  readonly now = (): number => this.time;

  readonly sleep = (ms: number, signal?: AbortSignal): Promise<void> =>
    new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const timer: Timer = { at: this.time + Math.max(0, ms), seq: this.seq++, resolve };
      this.timers.push(timer);
      signal?.addEventListener(
        'abort',
        () => {
          this.timers = this.timers.filter((t) => t !== timer);
          reject(signal.reason);
        },
        { once: true },
      );
    });

  /** Pending sleeps. */
  get pending(): number {
    return this.timers.length;
  }

  /** Moves time forward by `ms`, firing due sleeps in order and letting their callers run. */
  async advance(ms: number): Promise<void> {
    const end = this.time + ms;
    for (;;) {
      await flush();
      const next = this.nextTimer();
      if (!next || next.at > end) break;
      this.fire(next);
    }
    this.time = end;
    await flush();
  }

  /** Awaits a promise, moving time to each next sleep's deadline while it is pending. */
  async drive<T>(promise: Promise<T>, maxMs = 10 * 60_000): Promise<T> {
    let settled = false;
    const tracked = promise.finally(() => {
      settled = true;
    });
    tracked.catch(() => {});
    const limit = this.time + maxMs;
    for (;;) {
      await flush();
      if (settled) return tracked;
      const next = this.nextTimer();
      if (!next) throw new Error('deadlock: the promise waits but no sleep is pending');
      if (next.at > limit) throw new Error(`still pending after ${maxMs} ms of fake time`);
      this.fire(next);
    }
  }

  private nextTimer(): Timer | undefined {
    let best: Timer | undefined;
    for (const timer of this.timers) {
      if (!best || timer.at < best.at || (timer.at === best.at && timer.seq < best.seq)) best = timer;
    }
    return best;
  }

  private fire(timer: Timer): void {
    this.timers = this.timers.filter((t) => t !== timer);
    this.time = Math.max(this.time, timer.at);
    timer.resolve();
  }
}
