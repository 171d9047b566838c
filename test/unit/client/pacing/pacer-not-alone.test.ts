import { describe, expect, it } from 'vitest';
import { Pacer } from '../../../../src/client/pacing/pacer.js';
import { FakeClock } from '../fake-clock.js';
import { BucketSim, longestGap, sendAll } from './bucket-sim.js';

describe('clients of one key that cannot see each other (jobs on several machines)', () => {
  it('re-anchor on the headers: no wait beyond a Retry-After, and together they keep the bucket busy', async () => {
    // Before: each unexpected 429 halved the rate and forgot the proven drain, and one of two
    // pushes of 90 requests (B=10, r=20/s) sat 32 s with the bucket nearly empty.
    const clock = new FakeClock();
    const sim = new BucketSim(10, 20);
    const start = clock.now();
    const pacers = [0, 1].map(() => new Pacer({ now: clock.now, sleep: clock.sleep }));
    const runs = await clock.drive(
      Promise.all(pacers.map((pacer, i) => sendAll(pacer, clock, sim, { total: 90, latencyMs: 4 + i }))),
    );
    const minimum = ((180 - 10) / 20) * 1000;
    for (const run of runs) expect(longestGap(run.sent)).toBeLessThanOrEqual(1100);
    expect(clock.now() - start).toBeLessThanOrEqual(1.25 * minimum);
    for (const pacer of pacers) expect(pacer.drainRate()).toBeGreaterThan(15);
  });

  it('hold the published top tier (B=80, r=4/s) together, each wait at most a Retry-After', async () => {
    const clock = new FakeClock();
    const sim = new BucketSim(80, 4);
    const start = clock.now();
    const pacers = [0, 1].map(() => new Pacer({ now: clock.now, sleep: clock.sleep }));
    const runs = await clock.drive(
      Promise.all(pacers.map((pacer, i) => sendAll(pacer, clock, sim, { total: 120, latencyMs: 6 + 2 * i }))),
    );
    for (const run of runs) expect(longestGap(run.sent)).toBeLessThanOrEqual(1100);
    expect(clock.now() - start).toBeLessThanOrEqual(1.1 * ((240 - 80) / 4) * 1000);
  });
});
