import { describe, expect, it } from 'vitest';
import { BucketModel } from '../../../../src/client/pacing/bucket-model.js';

const T = 1_700_000_000_000;

describe('BucketModel', () => {
  it('starts from B/20 and takes B - Remaining as the level', () => {
    const model = new BucketModel();
    model.observe(T, T + 5, { limit: 80, remaining: 70, admitted: true }, 0);
    expect(model.drainRate()).toBe(4);
    expect(model.levelAt(T + 5)).toBe(10);
    expect(model.delayMs(T + 5)).toBe(0);
  });

  it('proves a drain faster than B/20 from how Remaining refilled', () => {
    const model = new BucketModel();
    model.observe(T, T + 10, { limit: 10, remaining: 0, admitted: true }, 0);
    // 500 ms later one request finds 8 free: at least 8 + 1 - 1 = 8 units drained in 500 ms.
    model.grant(T + 510);
    model.observe(T + 510, T + 520, { limit: 10, remaining: 8, admitted: true }, 0);
    expect(model.learnedDrain()).toBeCloseTo(8 / 0.52, 5);
    expect(model.drainRate()).toBeCloseTo(0.95 * (8 / 0.52), 5);
  });

  it('waits for Reset when Remaining is 0 and B/20 would wait longer', () => {
    const model = new BucketModel();
    model.observe(T, T + 200, { limit: 10, remaining: 0, resetAt: T + 1000, admitted: true }, 0);
    // One millisecond of margin against timers that fire early.
    expect(model.delayMs(T + 200)).toBe(801);
    model.grant(T + 1000);
    // That request spent Reset's promise: the next one waits for the drain.
    expect(model.delayMs(T + 1000)).toBeGreaterThan(1000);
  });

  it('bounds the level by the least Remaining of answers that overlapped, plus what is still out', () => {
    const model = new BucketModel();
    model.observe(T, T + 1, { limit: 10, remaining: 9, admitted: true }, 0);
    for (let i = 0; i < 4; i += 1) model.grant(T + 2);
    // Four overlapping requests answered in an order unrelated to the server's.
    model.observe(T + 2, T + 8, { limit: 10, remaining: 6, admitted: true }, 3);
    model.observe(T + 2, T + 9, { limit: 10, remaining: 8, admitted: true }, 2);
    model.observe(T + 2, T + 9, { limit: 10, remaining: 5, admitted: true }, 1);
    model.observe(T + 2, T + 10, { limit: 10, remaining: 7, admitted: true }, 0);
    expect(model.levelAt(T + 10)).toBeCloseTo(5, 1);
    // Nothing learnt from answers whose order is unknown.
    expect(model.learnedDrain()).toBe(0);
  });

  it('re-anchors on an unexpected 429 and keeps the tier and the proven drain', async () => {
    const model = new BucketModel();
    model.observe(T, T + 10, { limit: 10, remaining: 0, admitted: true }, 0);
    model.grant(T + 510);
    model.observe(T + 510, T + 520, { limit: 10, remaining: 8, admitted: true }, 0);
    const proven = model.learnedDrain();
    expect(proven).toBeGreaterThan(10);
    // Another client filled the bucket: the next answer is a 429 the model did not expect.
    model.grant(T + 600);
    model.observe(T + 600, T + 601, { limit: 10, remaining: 0, resetAt: T + 1000, admitted: false }, 0, true);
    expect(model.learnedDrain()).toBe(proven);
    expect(model.drainRate()).toBeCloseTo(0.95 * proven, 5);
    // Level from the answer: full, so the next request waits for the drain, not for a guess.
    expect(model.levelAt(T + 601)).toBe(10);
    expect(model.delayMs(T + 601)).toBeLessThanOrEqual(Math.ceil(1000 / (0.95 * proven)) + 1);
  });

  it('re-anchors on a Remaining lower than it expects (someone else spent the bucket)', () => {
    const model = new BucketModel();
    model.observe(T, T + 10, { limit: 80, remaining: 79, admitted: true }, 0);
    expect(model.levelAt(T + 10)).toBe(1);
    model.grant(T + 20);
    // 50 units went to another client meanwhile.
    model.observe(T + 20, T + 30, { limit: 80, remaining: 28, admitted: true }, 0);
    expect(model.levelAt(T + 30)).toBe(52);
    expect(model.drainRate()).toBe(4);
  });
});

describe('BucketModel after an idle spell', () => {
  it('holds the drain of a burst into an empty bucket until its answers are in, then drains', () => {
    const model = new BucketModel();
    model.observe(T, T + 5, { limit: 10, remaining: 9, admitted: true }, 0);
    // Gone quiet: the bound drains to empty (at B/20 = 0.5/s, two seconds for the one unit).
    const later = T + 10_000;
    expect(model.levelAt(later)).toBe(0);
    for (let i = 0; i < 10; i += 1) model.grant(later);
    // Any of them may reach the service long after it left (a new connection): nothing drains.
    expect(model.levelAt(later + 5_000)).toBe(10);
    expect(model.delayMs(later + 5_000)).toBe(Number.POSITIVE_INFINITY);
    // The answers come in; while some are out, the level is theirs and still does not drain.
    for (let i = 0; i < 9; i += 1) {
      model.observe(later, later + 60 + i, { limit: 10, remaining: 9 - i, admitted: true }, 9 - i);
    }
    expect(model.delayMs(later + 5_000)).toBe(Number.POSITIVE_INFINITY);
    model.observe(later, later + 70, { limit: 10, remaining: 0, admitted: true }, 0);
    expect(model.levelAt(later + 70)).toBe(10);
    expect(model.delayMs(later + 70)).toBe(2001);
  });

  it('lets a request lost without an answer stop holding the drain', () => {
    const model = new BucketModel();
    model.observe(T, T + 5, { limit: 10, remaining: 9, admitted: true }, 0);
    for (let i = 0; i < 10; i += 1) model.grant(T + 10_000);
    expect(model.delayMs(T + 20_000)).toBe(Number.POSITIVE_INFINITY);
    for (let i = 0; i < 9; i += 1) model.release(T + 10_000, T + 10_100);
    expect(model.delayMs(T + 20_000)).toBe(Number.POSITIVE_INFINITY);
    model.release(T + 10_000, T + 10_100);
    expect(model.delayMs(T + 20_000)).toBe(0);
  });

  it('after requests of a dead process are reclaimed, lets one request learn the level once they surely arrived', () => {
    const model = new BucketModel();
    model.observe(T, T + 5, { limit: 10, remaining: 9, admitted: true }, 0);
    // Nine more in one burst: the bucket bound is full and held; only their answers would tell more.
    for (let i = 0; i < 9; i += 1) model.grant(T + 10);
    model.reclaim(9, T + 10, T + 100);
    // Before they surely reached the service, the drain of B/20 (0.5/s) is all it knows.
    expect(model.delayMs(T + 100)).toBe(160 + 1);
    // From then on one request goes, and only one: its answer is the truth.
    expect(model.delayMs(T + 260)).toBe(0);
    model.grant(T + 260);
    expect(model.delayMs(T + 300)).toBeGreaterThan(3000);
    model.observe(T + 260, T + 270, { limit: 10, remaining: 7, admitted: true }, 0);
    expect(model.delayMs(T + 270)).toBe(0);
  });

  it('never lets a probe past requests of the living', () => {
    const model = new BucketModel();
    model.observe(T, T + 5, { limit: 10, remaining: 1, admitted: true }, 0);
    for (let i = 0; i < 2; i += 1) model.grant(T + 10);
    // One of the two belonged to a process now gone; without it the bound is still full: the
    // probe waits for one unit to drain (2 s at 0.5/s), not for two.
    model.reclaim(1, T + 10, T + 20);
    expect(model.delayMs(T + 1000)).toBeGreaterThan(1000);
    expect(model.delayMs(T + 1000)).toBeLessThan(2000);
    // Carried through the shared record.
    const copy = new BucketModel();
    copy.load(model.save());
    expect(copy.delayMs(T + 1000)).toBe(model.delayMs(T + 1000));
  });
});
