import { describe, expect, it } from 'vitest';
import { Pacer } from '../../../../src/client/pacing/pacer.js';
import { FakeClock } from '../fake-clock.js';
import { BucketSim, type SendOptions, sendAll } from './bucket-sim.js';
import { MemoryDisk, type MemoryStore } from './memory-store.js';

interface Sent {
  pid: number;
  /** Since the jobs started. */
  at: number;
}

interface Job extends SendOptions {
  pid: number;
  startAt?: number;
  stall?: (n: number) => number;
}

/** Processes (one pacer each, sharing `disk`) sending their requests to one simulated bucket. */
async function runJobs(clock: FakeClock, disk: MemoryDisk, sim: BucketSim, jobs: Job[]) {
  const start = clock.now();
  const debug: string[] = [];
  const runJob = async ({ pid, startAt, stall, ...sending }: Job) => {
    if (startAt) await clock.sleep(startAt);
    const shared = disk.store(pid);
    shared.stall = stall;
    const pacer = new Pacer({
      now: clock.now,
      sleep: clock.sleep,
      shared,
      debug: (line) => debug.push(`${pid}: ${line}`),
    });
    const result = await sendAll(pacer, clock, sim, { workers: 8, ...sending });
    await pacer.close();
    return { pid, ...result };
  };
  const results = await clock.drive(Promise.all(jobs.map(runJob)));
  const sent: Sent[] = results
    .flatMap(({ pid, sent: times }) => times.map((at) => ({ pid, at: at - start })))
    .sort((a, b) => a.at - b.at);
  const rateLimited = results.reduce((sum, r) => sum + r.rateLimited, 0);
  return { sent, debug, rateLimited, elapsedMs: clock.now() - start };
}

describe('Pacer sharing one key with other processes', () => {
  it('4 processes of 40 requests send together at the drain rate, with no 429 (B=10, r=20/s)', async () => {
    const clock = new FakeClock();
    const disk = new MemoryDisk(clock.now);
    const jobs = [101, 102, 103, 104].map((pid, i) => ({ pid, total: 40, startAt: i * 37 }));
    const result = await runJobs(clock, disk, new BucketSim(10, 20), jobs);
    expect(result.rateLimited).toBe(0);
    expect(result.sent.length).toBe(160);
    const span = result.sent[result.sent.length - 1].at - result.sent[0].at;
    expect(span).toBeLessThanOrEqual(1.1 * ((160 - 10) / 20) * 1000);
  });

  it('knowing the drain from an earlier run, still no 429 when the first requests arrive late', async () => {
    const clock = new FakeClock();
    const disk = new MemoryDisk(clock.now);
    const sim = new BucketSim(10, 20);
    await runJobs(clock, disk, sim, [{ pid: 111, total: 40 }]);
    expect(sim.rejected).toBe(0);
    // The bucket drains while nobody sends; then four jobs on new connections (5 to 95 ms the
    // first time) burst into it with the drain already known.
    await clock.advance(2_000);
    const jobs = [112, 113, 114, 115].map((pid, i) => ({
      pid,
      total: 40,
      startAt: i * 7,
      firstTransitMs: (loop: number) => 5 + ((loop * 13 + i * 29) % 90),
    }));
    const result = await runJobs(clock, disk, sim, jobs);
    expect(result.rateLimited).toBe(0);
    const span = result.sent[result.sent.length - 1].at - result.sent[0].at;
    expect(span).toBeLessThanOrEqual(1.1 * ((160 - 10) / 20) * 1000);
  });

  it('holds the drain until the slowest of a burst has arrived, not only the first', async () => {
    const clock = new FakeClock();
    const disk = new MemoryDisk(clock.now);
    const sim = new BucketSim(10, 20);
    await runJobs(clock, disk, sim, [{ pid: 121, total: 40 }]);
    await clock.advance(2_000);
    // One connection is up at once, the seven others take 200 ms: the bucket runs empty meanwhile.
    const result = await runJobs(clock, disk, sim, [
      { pid: 122, total: 40, firstTransitMs: (loop: number) => (loop === 0 ? 1 : 200) },
    ]);
    expect(result.rateLimited).toBe(0);
  });

  it('takes in an answer late (a busy process) without crediting drain from before newer answers', async () => {
    const clock = new FakeClock();
    const disk = new MemoryDisk(clock.now, undefined, clock.sleep);
    // Every seventh step of one process waits 80 ms for its turn; the others go on meanwhile.
    const result = await runJobs(clock, disk, new BucketSim(10, 20), [
      { pid: 131, total: 60, stall: (n) => (n % 7 === 6 ? 80 : 0) },
      { pid: 132, total: 60, startAt: 5 },
      { pid: 133, total: 60, startAt: 11 },
    ]);
    expect(result.rateLimited).toBe(0);
  });

  it('the same processes pacing alone draw 429s: the test can fail', async () => {
    const clock = new FakeClock();
    const sim = new BucketSim(10, 20);
    const alone = async (startAt: number) => {
      await clock.sleep(startAt);
      return sendAll(new Pacer({ now: clock.now, sleep: clock.sleep }), clock, sim, {
        total: 40,
        workers: 8,
      });
    };
    const results = await clock.drive(Promise.all([0, 37, 74, 111].map(alone)));
    expect(results.reduce((sum, r) => sum + r.rateLimited, 0)).toBeGreaterThan(0);
  });

  it('serves processes first come, first served: two single-request loops take turns', async () => {
    const clock = new FakeClock();
    const disk = new MemoryDisk(clock.now);
    const result = await runJobs(clock, disk, new BucketSim(10, 20), [
      { pid: 201, total: 60, workers: 1, latencyMs: 6 },
      { pid: 202, total: 60, workers: 1, latencyMs: 6, startAt: 3 },
    ]);
    expect(result.rateLimited).toBe(0);
    // Once the burst is spent, each waits for the other's turn: never two slots in a row.
    const steady = result.sent.slice(30, 100).map((s) => s.pid);
    for (let i = 2; i < steady.length; i += 1)
      expect(steady[i] === steady[i - 1] && steady[i] === steady[i - 2]).toBe(false);
  });

  it('a late process gets its turn within a few slots of a busy one with 8 requests waiting', async () => {
    const clock = new FakeClock();
    const disk = new MemoryDisk(clock.now);
    const result = await runJobs(clock, disk, new BucketSim(10, 20), [
      { pid: 301, total: 80 },
      { pid: 302, total: 5, workers: 1, startAt: 2_000 },
    ]);
    const firstLate = result.sent.find((s) => s.pid === 302);
    // Only the 8 requests of 301 that were waiting before it go first.
    const before = result.sent.filter((s) => s.pid === 301 && s.at >= 2_000 && s.at < (firstLate?.at ?? 0));
    expect(before.length).toBeLessThanOrEqual(8);
    expect(
      result.debug.some((line) => line.startsWith('302: ⧗ waited') && line.includes('another svc process')),
    ).toBe(true);
  });

  it('a process that died with requests in flight and waiting holds up nobody', async () => {
    const clock = new FakeClock();
    const disk = new MemoryDisk(clock.now);
    // A record left by pid 401, killed while it had 3 requests out and one waiting since long ago.
    disk.text = JSON.stringify({
      version: 1,
      bucketId: disk.bucketId,
      updatedAt: clock.now(),
      grants: 3,
      pausedUntil: 0,
      processes: {
        401: {
          startedAt: clock.now() - 5000,
          seenAt: clock.now(),
          inFlight: 3,
          queued: 5,
          waitingSince: clock.now() - 4000,
          grants: 3,
        },
      },
    });
    const result = await runJobs(clock, disk, new BucketSim(10, 20), [{ pid: 402, total: 10, workers: 1 }]);
    expect(result.elapsedMs).toBeLessThan(200);
    expect(Object.keys(disk.read().processes)).toEqual([]);
  });

  it('a process killed with its burst unanswered, before it learned the drain, costs the next ones no second', async () => {
    const clock = new FakeClock();
    const disk = new MemoryDisk(clock.now);
    const sim = new BucketSim(10, 20);
    // pid 451 learns the bucket from its first answer, then sends a burst that fills it and is
    // killed before any answer of the burst comes back: the record holds the bucket full, the
    // drain known only as the tier's B/20 (0.5/s, where the service drains 20/s).
    const victim = new Pacer({ now: clock.now, sleep: clock.sleep, shared: disk.store(451) });
    const first = await clock.drive(victim.acquire());
    await clock.advance(2);
    victim.observe(first, sim.handle(clock.now()));
    for (let i = 0; i < 9; i += 1) await clock.drive(victim.acquire());
    await clock.advance(2);
    for (let i = 0; i < 9; i += 1) sim.handle(clock.now());
    await clock.advance(1);
    expect(disk.read().processes[451]?.inFlight).toBe(9);
    disk.alive.delete(451);
    // The next two pushes start 300 ms later (a process's start-up).
    await clock.advance(300);
    const result = await runJobs(clock, disk, sim, [
      { pid: 452, total: 20, workers: 4 },
      { pid: 453, total: 20, workers: 4, startAt: 5 },
    ]);
    expect(result.rateLimited).toBe(0);
    // Its requests reached the service long ago: one request learns the level, then the rest
    // flows at the drain, instead of waiting for the bucket to drain at 0.5/s (2 s).
    expect(result.sent[0].at).toBeLessThan(50);
    expect(result.sent.find((s) => s.pid === 453)?.at).toBeLessThan(100);
    // The bucket drained 6 of the 10 meanwhile: 34 requests beyond the room, learning the drain afresh.
    expect(result.elapsedMs).toBeLessThan(1.2 * ((40 - 6) / 20) * 1000);
    expect(result.debug.join('\n')).toMatch(/svc process 451 is gone with 9 requests out/);
  });

  it('a 429 seen by one process holds every process on the key for its Retry-After', async () => {
    const clock = new FakeClock();
    const disk = new MemoryDisk(clock.now);
    const a = new Pacer({ now: clock.now, sleep: clock.sleep, shared: disk.store(501) });
    const b = new Pacer({ now: clock.now, sleep: clock.sleep, shared: disk.store(502) });
    const ticket = await clock.drive(a.acquire());
    a.observe(ticket, {
      status: 429,
      headers: { 'x-ratelimit-limit': '10', 'x-ratelimit-remaining': '0' },
      rateLimited: true,
      retryAfterMs: 2_000,
    });
    const asked = clock.now();
    await clock.drive(b.acquire());
    expect(clock.now() - asked).toBeGreaterThanOrEqual(2_000);
  });

  it('goes on pacing alone when the shared state cannot be written', async () => {
    const clock = new FakeClock();
    const disk = new MemoryDisk(clock.now);
    const store = disk.store(601) as MemoryStore;
    store.failing = new Error('EROFS: read-only file system');
    const debug: string[] = [];
    const pacer = new Pacer({
      now: clock.now,
      sleep: clock.sleep,
      shared: store,
      debug: (line) => debug.push(line),
    });
    const sim = new BucketSim(10, 20);
    for (let i = 0; i < 20; i += 1) {
      const ticket = await clock.drive(pacer.acquire());
      await clock.advance(2);
      pacer.observe(ticket, sim.handle(clock.now()));
    }
    expect(sim.rejected).toBe(0);
    expect(debug.join('\n')).toContain('pacing no longer shared with other svc processes: EROFS');
  });

  it('leaves the record when the answers carry no rate-limit headers', async () => {
    const clock = new FakeClock();
    const disk = new MemoryDisk(clock.now);
    const pacer = new Pacer({ now: clock.now, sleep: clock.sleep, shared: disk.store(701) });
    const ticket = await clock.drive(pacer.acquire());
    pacer.observe(ticket, { status: 200, headers: {} });
    await clock.drive(pacer.acquire());
    await clock.advance(1);
    expect(disk.read().processes).toEqual({});
  });
});
