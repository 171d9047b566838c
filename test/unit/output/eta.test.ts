import { describe, expect, it } from 'vitest';
import { estimateRemaining, RecentRate } from '../../../src/output/eta.js';
import { progressText } from '../../../src/output/progress.js';

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
