import { describe, expect, it } from 'vitest';
import { estimateRemaining, RecentRate } from '../../../src/output/eta.js';
import { LINE_INTERVAL_MS, progressText, startProgress } from '../../../src/output/progress.js';
import { memoryIO } from '../../helpers/memory-io.js';

describe('estimateRemaining', () => {
  it('paced: the remaining requests at the sustained rate, whatever the burst did', () => {
    const left = estimateRemaining({
      total: 20_000,
      done: 2_000,
      itemsPerRequest: 100,
      // The burst made the run look fast so far; the drain is what is left.
      recentPerSecond: 5000,
      answersPerSecond: 4,
      pace: { perSecond: 3.8, limited: true },
    });
    expect(left).toEqual({ seconds: 45, paced: true, perSecond: 4 });
  });

  it("uses the pacer's proven drain until the run has measured its own", () => {
    const left = estimateRemaining({
      total: 1000,
      done: 200,
      itemsPerRequest: 10,
      pace: { perSecond: 2, limited: true },
    });
    expect(left?.seconds).toBe(40);
  });

  it('not paced: the throughput of the last seconds', () => {
    expect(estimateRemaining({ total: 100, done: 50, itemsPerRequest: 10, recentPerSecond: 25 })).toEqual({
      seconds: 2,
      paced: false,
    });
    expect(estimateRemaining({ total: 100, done: 50, itemsPerRequest: 10 })).toBeUndefined();
  });
});

describe('RecentRate', () => {
  it('says nothing until its points span the minimum, then the rate over its window', () => {
    const rate = new RecentRate(5000, 1500);
    rate.add(0, 0);
    rate.add(100, 10);
    expect(rate.perSecond()).toBeUndefined();
    rate.add(2000, 40);
    expect(rate.perSecond()).toBe(20);
    rate.add(9000, 110);
    expect(rate.perSecond()).toBe(10);
  });
});

describe('progressText', () => {
  it('names the pace the rate limit sets', () => {
    const text = progressText({
      total: 20_000,
      done: 1_200,
      noun: 'SKUs',
      elapsedMs: 30_000,
      recentPerSecond: 400,
      answersPerSecond: 4,
      itemsPerRequest: 100,
      pace: { perSecond: 3.8, limited: true },
    });
    expect(text).toBe('1,200/20,000 SKUs · 400/s · ETA 47s · paced by the rate limit (4.0 requests/s)');
  });

  it('counts down between answers', () => {
    const state = {
      total: 100,
      done: 50,
      noun: 'SKUs',
      elapsedMs: 0,
      itemsPerRequest: 10,
      pace: { perSecond: 1, limited: true },
    };
    expect(progressText(state)).toContain('ETA 5s');
    expect(progressText({ ...state, sinceUpdateMs: 3000 })).toContain('ETA 2s');
  });

  it('while waiting: the count and the time elapsed, no rate', () => {
    const text = progressText({
      total: 9,
      done: 3,
      noun: 'operations done',
      elapsedMs: 12_000,
      itemsPerRequest: 0,
      waiting: true,
    });
    expect(text).toBe('3/9 operations done · 12s elapsed');
  });
});

describe('progress without a live line', () => {
  /** A clock the test moves; `every` keeps the one tick it is given. */
  function manualClock() {
    let at = 0;
    const ticks: Array<{ ms: number; tick: () => void; stopped: boolean }> = [];
    return {
      ticks,
      clock: {
        now: () => at,
        every(ms: number, tick: () => void) {
          const entry = { ms, tick, stopped: false };
          ticks.push(entry);
          return () => {
            entry.stopped = true;
          };
        },
      },
      advance(ms: number) {
        at += ms;
        for (const entry of ticks) if (!entry.stopped) entry.tick();
      },
    };
  }

  it('writes a whole line at each tick, its rate over the interval since the last one', async () => {
    const io = memoryIO();
    const manual = manualClock();
    const progress = await startProgress(io, {
      total: 1000,
      noun: 'SKUs',
      enabled: true,
      clock: manual.clock,
    });
    expect(manual.ticks.map((entry) => entry.ms)).toEqual([LINE_INTERVAL_MS]);
    progress.update(300);
    manual.advance(30_000);
    progress.update(600);
    manual.advance(30_000);
    // Nothing done in this interval: 0/s, and no ETA from a rate of nothing.
    manual.advance(30_000);
    progress.stop();
    manual.advance(30_000);
    expect(io.err().split('\n')).toEqual([
      '300/1,000 SKUs · 10/s · ETA 1m 10s',
      '600/1,000 SKUs · 10/s · ETA 40s',
      '600/1,000 SKUs · 0/s',
      '',
    ]);
  });

  it('draws no live line on a terminal in CI (live: false): lines instead', async () => {
    const io = { ...memoryIO(), stderrIsTTY: true };
    (io.stderr as unknown as { columns: number }).columns = 80;
    const manual = manualClock();
    const progress = await startProgress(io, {
      total: undefined,
      noun: 'orders',
      enabled: true,
      live: false,
      clock: manual.clock,
    });
    progress.update(1200);
    manual.advance(30_000);
    progress.stop();
    expect(io.err()).toBe('1,200 orders · 40/s\n');
  });

  it('says nothing when not enabled (-q)', async () => {
    const io = memoryIO();
    const manual = manualClock();
    const progress = await startProgress(io, {
      total: 10,
      noun: 'SKUs',
      enabled: false,
      clock: manual.clock,
    });
    progress.update(5);
    manual.advance(30_000);
    expect([io.err(), manual.ticks.length]).toEqual(['', 0]);
  });
});
