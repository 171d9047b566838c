import { describe, expect, it } from 'vitest';
import { Pacer, type PacerTicket } from '../../../../src/client/pacing/pacer.js';
import { FakeClock } from '../fake-clock.js';
import { BucketSim, longestGap } from './bucket-sim.js';

interface CrawlResult {
  sent: number[];
  rateLimited: number;
  elapsedMs: number;
  order: number[];
}

/** `workers` loops sending `total` requests in all through the pacer to a simulated bucket. */
async function crawl(
  pacer: Pacer,
  clock: FakeClock,
  sim: BucketSim,
  total: number,
  {
    latencyMs = 2,
    workers = 1,
    skew = false,
    stall,
  }: {
    latencyMs?: number;
    workers?: number;
    skew?: boolean;
    /** The server handles nothing from `fromMs` after the start for `ms`, then what arrived meanwhile at once. */
    stall?: { fromMs: number; ms: number };
  } = {},
): Promise<CrawlResult> {
  const result: CrawlResult = { sent: [], rateLimited: 0, elapsedMs: 0, order: [] };
  const start = clock.now();
  let next = 0;
  const worker = async (id: number) => {
    while (next < total) {
      next += 1;
      for (;;) {
        const ticket = await pacer.acquire();
        result.order.push(id);
        result.sent.push(clock.now() - start);
        // With skew, workers differ in latency, so answers overtake each other.
        await clock.sleep((latencyMs / 2) * (skew ? 1 + (id % 3) * 0.3 : 1));
        const stalledFor = stall ? start + stall.fromMs + stall.ms - clock.now() : 0;
        if (stall && stalledFor > 0 && stalledFor <= stall.ms) await clock.sleep(stalledFor);
        const answer = sim.handle(clock.now());
        await clock.sleep((latencyMs / 2) * (skew ? 1 + (id % 2) * 0.5 : 1));
        const rateLimited = answer.status === 429;
        pacer.observe(ticket, { ...answer, rateLimited });
        if (!rateLimited) break;
        result.rateLimited += 1;
      }
    }
  };
  await clock.drive(Promise.all(Array.from({ length: workers }, (_, id) => worker(id))));
  result.elapsedMs = clock.now() - start;
  return result;
}

function newPacer(clock: FakeClock, options: { initialConcurrency?: number } = {}): Pacer {
  return new Pacer({ now: clock.now, sleep: clock.sleep, ...options });
}

describe('Pacer', () => {
  it('spends the whole burst at once', async () => {
    const clock = new FakeClock();
    const sim = new BucketSim(10, 20);
    const result = await crawl(newPacer(clock), clock, sim, 10);
    expect(result.rateLimited).toBe(0);
    // Ten sequential requests of 2 ms each: no waiting at all.
    expect(result.elapsedMs).toBe(20);
  });

  it('holds a drain far above B/20 (B=10, r=20/s) without a 429', async () => {
    const clock = new FakeClock();
    const pacer = newPacer(clock);
    const sim = new BucketSim(10, 20);
    const result = await crawl(pacer, clock, sim, 200);
    expect(result.rateLimited).toBe(0);
    const minimum = ((200 - 10) / 20) * 1000;
    expect(result.elapsedMs).toBeLessThanOrEqual(1.1 * minimum);
    expect(pacer.drainRate()).toBeGreaterThan(18);
    expect(pacer.drainRate()).toBeLessThanOrEqual(20);
  });

  it('stays within 1.1x of the minimum whatever the phase of X-RateLimit-Reset', async () => {
    for (let offset = 0; offset < 1000; offset += 125) {
      const clock = new FakeClock(1_700_000_000_000 + offset);
      const result = await crawl(newPacer(clock), clock, new BucketSim(10, 20), 200, { latencyMs: 4 });
      expect(result.rateLimited).toBe(0);
      expect(result.elapsedMs).toBeLessThanOrEqual(1.1 * 9500);
    }
  });

  it('holds the published top tier (B=80, r=4/s)', async () => {
    const clock = new FakeClock();
    const pacer = newPacer(clock);
    const sim = new BucketSim(80, 4);
    const result = await crawl(pacer, clock, sim, 200);
    expect(result.rateLimited).toBe(0);
    expect(result.sent[79]).toBeLessThan(200);
    expect(result.elapsedMs).toBeLessThanOrEqual(1.05 * ((200 - 80) / 4) * 1000);
  });

  it('keeps the tier when the service drains slower than B/20 (B=40, r=1/s): 429s, but no stall', async () => {
    // Outside the contract, and from one client indistinguishable from another client spending
    // the bucket: the answers re-anchor the level, the rate stays the tier's, and each 429
    // costs its Retry-After, never a doubled guess.
    const clock = new FakeClock();
    const pacer = newPacer(clock);
    const sim = new BucketSim(40, 1);
    const result = await crawl(pacer, clock, sim, 100);
    expect(pacer.drainRate()).toBe(2);
    expect(longestGap(result.sent)).toBeLessThanOrEqual(1100);
    // The bucket never idles: 429s take no unit, so the admitted requests still pace at r.
    expect(result.elapsedMs).toBeLessThanOrEqual(1.05 * (100 - 40) * 1000);
  });

  it('serves concurrent acquirers first come, first served, still without a 429', async () => {
    const clock = new FakeClock();
    const pacer = newPacer(clock);
    const sim = new BucketSim(10, 20);
    const result = await crawl(pacer, clock, sim, 120, { workers: 4, latencyMs: 6 });
    expect(result.rateLimited).toBe(0);
    expect(result.elapsedMs).toBeLessThanOrEqual(1.1 * ((120 - 10) / 20) * 1000);
    // After the first answer every worker gets its turn in rotation.
    const steady = result.order.slice(20, 60);
    for (let i = 4; i < steady.length; i += 1) expect(steady[i]).toBe(steady[i - 4]);
  });

  it('learns nothing false from answers that overtake each other', async () => {
    const clock = new FakeClock();
    const pacer = newPacer(clock);
    const result = await crawl(pacer, clock, new BucketSim(10, 20), 200, {
      workers: 4,
      latencyMs: 1,
      skew: true,
    });
    expect(result.rateLimited).toBe(0);
    expect(pacer.drainRate()).toBeLessThanOrEqual(20);
    expect(result.elapsedMs).toBeLessThanOrEqual(1.1 * 9500);
  });

  // Known defect, left for the next session (issue 42's closing note): after a stall longer than the
  // bucket takes to drain, the 8 requests held in it land at once, and the pacer then sends one
  // more before the drain has made room (the service's bucket at 9.96 when it arrives).
  it.fails('sends nothing the bucket has no room for after a server stall of 600 ms (B=10, r=20/s, 8 loops)', async () => {
    const clock = new FakeClock();
    const result = await crawl(newPacer(clock), clock, new BucketSim(10, 20), 120, {
      workers: 8,
      stall: { fromMs: 2000, ms: 600 },
    });
    expect(result.rateLimited).toBe(0);
  });

  it('lets one request out before it knows the bucket, then the rest of the burst', async () => {
    const clock = new FakeClock();
    const pacer = newPacer(clock);
    const first = await pacer.acquire();
    let secondGranted = false;
    const second = pacer.acquire().then((ticket) => {
      secondGranted = true;
      return ticket;
    });
    await clock.advance(100);
    expect(secondGranted).toBe(false);
    pacer.observe(first, {
      status: 200,
      headers: { 'x-ratelimit-limit': '10', 'x-ratelimit-remaining': '9' },
    });
    await clock.advance(0);
    expect(secondGranted).toBe(true);
    await second;
    expect(pacer.snapshot()).toMatchObject({ bucket: 10, drainPerSecond: 0.5, inFlight: 1 });
  });

  it('pauses everyone after a 429 for its Retry-After', async () => {
    const clock = new FakeClock();
    const pacer = newPacer(clock);
    const ticket = await pacer.acquire();
    const headers = { 'x-ratelimit-limit': '10', 'x-ratelimit-remaining': '0' };
    pacer.observe(ticket, { status: 429, headers, rateLimited: true, retryAfterMs: 3000 });
    const start = clock.now();
    const granted: number[] = [];
    const waiting = [pacer.acquire(), pacer.acquire()].map((p) =>
      p.then(() => granted.push(clock.now() - start)),
    );
    await clock.advance(2999);
    expect(granted).toEqual([]);
    await clock.drive(Promise.all(waiting));
    expect(granted[0]).toBeGreaterThanOrEqual(3000);
  });

  it('does not pause for a write-quota 429', async () => {
    const clock = new FakeClock();
    const pacer = newPacer(clock);
    const ticket = await pacer.acquire();
    const headers = { 'x-ratelimit-limit': '10', 'x-ratelimit-remaining': '9' };
    pacer.observe(ticket, { status: 429, headers, rateLimited: false, retryAfterMs: 3_600_000 });
    expect(pacer.delayMs()).toBe(0);
  });

  it('waits no longer than X-RateLimit-Reset when Remaining is 0', async () => {
    const clock = new FakeClock(1_700_000_000_200);
    const pacer = newPacer(clock);
    const ticket = await pacer.acquire();
    // B/20 alone would say 2 s; the server promises a slot at the next whole second.
    const headers = {
      'x-ratelimit-limit': '10',
      'x-ratelimit-remaining': '0',
      'x-ratelimit-reset': '1700000001',
    };
    pacer.observe(ticket, { status: 200, headers });
    expect(pacer.delayMs()).toBe(801);
  });

  it('rejects an aborted acquire and keeps serving the others', async () => {
    const clock = new FakeClock();
    const pacer = newPacer(clock);
    const first = await pacer.acquire();
    const controller = new AbortController();
    const aborted = pacer.acquire(controller.signal);
    const after = pacer.acquire();
    controller.abort(new Error('stop'));
    await expect(aborted).rejects.toThrow('stop');
    pacer.release(first);
    await expect(clock.drive(after)).resolves.toMatchObject({ id: 1 });
    await expect(pacer.acquire(AbortSignal.abort(new Error('already')))).rejects.toThrow('already');
  });

  it('keeps going when requests fail without an answer', async () => {
    const clock = new FakeClock();
    const pacer = newPacer(clock);
    const tickets: PacerTicket[] = [];
    for (let i = 0; i < 5; i += 1) {
      const ticket = await clock.drive(pacer.acquire());
      tickets.push(ticket);
      pacer.release(ticket);
    }
    expect(tickets.map((t) => t.id)).toEqual([0, 1, 2, 3, 4]);
  });

  it('without rate-limit headers on authenticated answers, lets 8 go at once instead of 1', () => {
    const clock = new FakeClock();
    const pacer = newPacer(clock);
    expect(pacer.delayMs()).toBe(0);
    const first = pacer.acquire();
    return first.then(async (ticket) => {
      expect(pacer.delayMs()).toBe(Number.POSITIVE_INFINITY);
      // A 401 never carries the headers: it says nothing about pacing.
      pacer.observe(ticket, { status: 401, headers: {} });
      const second = await pacer.acquire();
      expect(pacer.delayMs()).toBe(Number.POSITIVE_INFINITY);
      pacer.observe(second, { status: 200, headers: {} });
      const tickets: PacerTicket[] = [];
      for (let i = 0; i < 8; i++) {
        expect(pacer.delayMs()).toBe(0);
        tickets.push(await pacer.acquire());
      }
      expect(pacer.delayMs()).toBe(Number.POSITIVE_INFINITY);
    });
  });
});
