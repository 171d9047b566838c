/**
 * The shared record in Redis (redis-store.ts over redis-link.ts), against a real redis-server:
 * locked updates lose nothing, the record is named by a hash and expires, a dead holder's lock
 * expires, processes of other machines are judged by their writes, and a slow Redis holds a
 * request no longer than the bound before the pacer shares through this machine's file.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Pacer } from '../../../../src/client/pacing/pacer.js';
import { parsePacingUrl } from '../../../../src/client/pacing/pacing-url.js';
import { FileStore, sharedBucketId } from '../../../../src/client/pacing/record-file.js';
import { RedisLink, STEP_BOUND_MS } from '../../../../src/client/pacing/redis-link.js';
import { RECORD_TTL_MS, RedisStore, redisRecordKey } from '../../../../src/client/pacing/redis-store.js';
import { RATE_LIMIT_HEADERS } from '../../../../src/contract/contract.js';
import { redisInstalled, redisPerTest } from '../../../helpers/redis-server.js';
import { tempDir } from '../../../helpers/temp-dir.js';

const hasRedis = redisInstalled();
const startRedis = redisPerTest();
const KEY = 'svc_live_abcdefghijklmnopqrstuvwx';
const BASE = 'http://127.0.0.1:4010';
const ID = sharedBucketId(KEY, BASE);

/**
 * A step bound only a hung Redis reaches: these tests are about what a step does, and a busy
 * machine can take more than svc's own bound (STEP_BOUND_MS) to answer 100 contended updates.
 */
const HANG_MS = 20_000;

/** One process's link, with what it would say on stderr and under --debug. */
function linkTo(url: string, stepBoundMs = HANG_MS) {
  const said = { warnings: [] as string[], debug: [] as string[] };
  const link = new RedisLink(
    parsePacingUrl(url, { env: true }) as NonNullable<ReturnType<typeof parsePacingUrl>>,
    {
      warning: (line) => said.warnings.push(line),
      debug: (line) => said.debug.push(line),
    },
    Date.now,
    stepBoundMs,
  );
  return { link, said };
}

const roomy = {
  status: 200,
  headers: { [RATE_LIMIT_HEADERS.limit]: '100', [RATE_LIMIT_HEADERS.remaining]: '90' },
};

async function until(condition: () => boolean | Promise<boolean>, ms: number): Promise<void> {
  const giveUpAt = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > giveUpAt) throw new Error(`not within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe.skipIf(!hasRedis)('the shared record in Redis (redis-server installed)', () => {
  it('serializes the locked updates of several processes: none is lost', async () => {
    const redis = await startRedis();
    const links = Array.from({ length: 4 }, () => linkTo(redis.url).link);
    try {
      const stores = links.map((link) => new RedisStore(link, ID));
      await Promise.all(
        stores.flatMap((store) =>
          Array.from({ length: 25 }, () =>
            store.transact((record) => {
              record.grants += 1;
            }),
          ),
        ),
      );
      expect((await stores[0]?.peek())?.grants).toBe(100);
      expect(new Set(stores.map((store) => store.pid)).size).toBe(4);
    } finally {
      await Promise.all(links.map((link) => link.close()));
    }
  });

  it('names the record by a hash of key and base URL, never the key, and lets it expire', async () => {
    const redis = await startRedis();
    const { link } = linkTo(redis.url);
    try {
      await new RedisStore(link, ID).transact((record) => {
        record.grants = 3;
      });
      expect(redis.cli('--scan').trim()).toBe(redisRecordKey(ID));
      expect(redisRecordKey(ID)).toMatch(/^svc:pacing:[0-9a-f]{32}$/);
      const ttl = Number(redis.cli('pttl', redisRecordKey(ID)).trim());
      expect(ttl).toBeGreaterThan(RECORD_TTL_MS - 60_000);
      expect(ttl).toBeLessThanOrEqual(RECORD_TTL_MS);
      expect(redis.cli('hget', redisRecordKey(ID), 'rec')).not.toContain(KEY);
    } finally {
      await link.close();
    }
  });

  it('a lock left by a holder that died expires: the next update waits at most its lease', async () => {
    const redis = await startRedis();
    const { link } = linkTo(redis.url);
    try {
      const store = new RedisStore(link, ID);
      await store.transact(() => undefined);
      redis.cli('set', `${redisRecordKey(ID)}:lock`, '12345.1', 'px', '500');
      const started = Date.now();
      await store.transact((record) => {
        record.grants = 1;
      });
      // It waited for the lease (a lock that never expired would hang until the step bound).
      expect(Date.now() - started).toBeGreaterThanOrEqual(400);
      expect((await store.peek())?.grants).toBe(1);
    } finally {
      await link.close();
    }
  });

  it("a look sees another process's write; the others are judged by their last write", async () => {
    const redis = await startRedis();
    const [a, b] = [linkTo(redis.url).link, linkTo(redis.url).link];
    try {
      const [mine, theirs] = [new RedisStore(a, ID), new RedisStore(b, ID)];
      await theirs.transact((record) => {
        record.grants = 5;
      });
      expect((await mine.peek())?.grants).toBe(5);
      // Unchanged since: the look moves no record, and still sees it.
      expect((await mine.peek())?.grants).toBe(5);
      await theirs.transact((record) => {
        record.grants = 6;
      });
      expect((await mine.peek())?.grants).toBe(6);
      expect(mine.isAlive(mine.pid)).toBe(true);
      expect(mine.isAlive(theirs.pid)).toBeUndefined();
      expect(mine.label).toEqual({ host: expect.any(String), pid: process.pid });
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('a slow Redis holds a request no longer than the bound: one warning, the file meanwhile, back once it answers', async () => {
    const redis = await startRedis();
    // svc's own bound: the point is that a slow Redis holds a request no longer than it.
    const { link, said } = linkTo(redis.url, STEP_BOUND_MS);
    const dir = join(tempDir('svc-redis-pacer-'), 'pacing');
    const file = new FileStore(dir, ID);
    const onRedis = new RedisStore(link, ID);
    const pacer = new Pacer({
      shared: onRedis,
      fallback: file,
      debug: (line) => said.debug.push(line),
    });
    try {
      pacer.observe(await pacer.acquire(), roomy);
      // Every client of this Redis waits 4 s for an answer.
      const pauseMs = 4_000;
      redis.cli('client', 'pause', String(pauseMs));
      const started = Date.now();
      const held = await pacer.acquire();
      const waited = Date.now() - started;
      expect(waited).toBeGreaterThanOrEqual(STEP_BOUND_MS - 50);
      // Given up at the bound, not held until Redis answered (a busy machine may add to the bound).
      expect(waited).toBeLessThan(pauseMs - 500);
      pacer.observe(held, roomy);
      expect(said.warnings).toEqual([
        expect.stringMatching(
          /^SVC_PACING_URL \(redis:\/\/127\.0\.0\.1:\d+\) does not answer \(no answer to a pacing update within 1 s\)/,
        ),
      ]);
      // Meanwhile the processes of this machine share through the file.
      await until(async () => String(process.pid) in ((await file.peek())?.processes ?? {}), HANG_MS);
      // Redis answers again: the pacer goes back to it, and says so under --debug only.
      const pausedUntil = started + pauseMs;
      await until(async () => {
        pacer.observe(await pacer.acquire(), roomy);
        return said.debug.some((line) => line.startsWith(`SVC_PACING_URL (${redis.url}) answers again`));
      }, HANG_MS);
      expect(Date.now()).toBeGreaterThanOrEqual(pausedUntil - 100);
      expect(said.warnings).toHaveLength(1);
      // Back in the record of every machine.
      expect(String(onRedis.pid) in ((await onRedis.peek())?.processes ?? {})).toBe(true);
    } finally {
      await pacer.close();
      await link.close();
    }
  }, 60_000);
});
