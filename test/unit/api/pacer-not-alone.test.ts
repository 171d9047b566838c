import { describe, expect, it } from 'vitest';
import { Pacer } from '../../../src/api/pacer.js';
import { BucketSim } from './bucket-sim.js';
import { FakeClock } from './fake-clock.js';

interface Run {
  sent: number[];
  rateLimited: number;
}

/** One client on its own machine: its own pacer, `total` requests to the key's one bucket. */
async function client(pacer: Pacer, clock: FakeClock, sim: BucketSim, total: number, latencyMs: number) {
  const run: Run = { sent: [], rateLimited: 0 };
  for (let i = 0; i < total; i += 1) {
    for (;;) {
      const ticket = await pacer.acquire();
      run.sent.push(clock.now());
      await clock.sleep(latencyMs / 2);
      const answer = sim.handle(clock.now());
      await clock.sleep(latencyMs / 2);
      const rateLimited = answer.status === 429;
      pacer.observe(ticket, { ...answer, rateLimited });
      if (!rateLimited) break;
      run.rateLimited += 1;
    }
  }
  return run;
}

function longestGap(times: number[]): number {
  let gap = 0;
  for (let i = 1; i < times.length; i += 1) gap = Math.max(gap, times[i] - times[i - 1]);
  return gap;
}

describe('clients of one key that cannot see each other (jobs on several machines)', () => {
  it('re-anchor on the headers: no wait beyond a Retry-After, and together they keep the bucket busy', async () => {
    // Before: each unexpected 429 halved the rate and forgot the proven drain, and one of two
    // pushes of 90 requests (B=10, r=20/s) sat 32 s with the bucket nearly empty.
    const clock = new FakeClock();
    const sim = new BucketSim(10, 20);
    const start = clock.now();
    const pacers = [0, 1].map(() => new Pacer({ now: clock.now, sleep: clock.sleep }));
    const runs = await clock.drive(
      Promise.all(pacers.map((pacer, i) => client(pacer, clock, sim, 90, 4 + i))),
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
      Promise.all(pacers.map((pacer, i) => client(pacer, clock, sim, 120, 6 + 2 * i))),
    );
    for (const run of runs) expect(longestGap(run.sent)).toBeLessThanOrEqual(1100);
    expect(clock.now() - start).toBeLessThanOrEqual(1.1 * ((240 - 80) / 4) * 1000);
  });
});
