/**
 * svc's count of the write quota spent on a key: by UTC day, shared by the processes of the
 * machine through a file, and by every machine through Redis, which is given what a process
 * counted while it was away once it answers again.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parsePacingUrl } from '../../../../src/client/pacing/pacing-url.js';
import { QuotaFile, QuotaTally, RedisQuota } from '../../../../src/client/pacing/quota-tally.js';
import { sharedBucketId } from '../../../../src/client/pacing/record-file.js';
import { RedisLink } from '../../../../src/client/pacing/redis-link.js';
import { brokenRedisPerTest } from '../../../helpers/broken-redis.js';
import { redisInstalled, redisPerTest } from '../../../helpers/redis-server.js';
import { tempDir } from '../../../helpers/temp-dir.js';

const ID = sharedBucketId('svc_live_abcdefghijklmnopqrstuvwx', 'http://127.0.0.1:4010');
const hasRedis = redisInstalled();
const startRedis = redisPerTest();
const startBroken = brokenRedisPerTest();

function freshDir(): string {
  return join(tempDir('svc-quota-'), 'pacing');
}

describe('the quota count of a machine', () => {
  it('counts by UTC day: a new day starts from 0, a late unit of the day before is dropped', async () => {
    const dir = freshDir();
    let now = Date.UTC(2025, 5, 1, 23, 59, 59, 0);
    const tally = new QuotaTally(new QuotaFile(dir, ID), undefined, () => now);
    tally.spend(now);
    tally.spend(now);
    expect(await tally.read()).toMatchObject({
      day: '2025-06-01',
      spent: 2,
      thisMachine: 2,
      countedOn: 'this machine',
      resetsAt: new Date(Date.UTC(2025, 5, 2)),
    });
    now = Date.UTC(2025, 5, 2, 0, 0, 1);
    expect((await tally.read()).spent).toBe(0);
    tally.spend(now);
    // An answer of the evening before, counted after midnight: that quota has reset.
    tally.spend(Date.UTC(2025, 5, 1, 23, 59, 59, 900));
    expect(await tally.read()).toMatchObject({ day: '2025-06-02', spent: 1 });
  });

  it('is one count for every process of the machine (one file, under a lock)', async () => {
    const dir = freshDir();
    const now = () => Date.UTC(2025, 5, 1, 12);
    const tallies = Array.from({ length: 4 }, () => new QuotaTally(new QuotaFile(dir, ID), undefined, now));
    for (const tally of tallies) for (let i = 0; i < 10; i += 1) tally.spend(now());
    await Promise.all(tallies.map((tally) => tally.settled()));
    expect((await tallies[0]?.read())?.spent).toBe(40);
  });
});

describe.skipIf(!hasRedis)('the quota count of every machine (redis-server installed)', () => {
  it('sums the machines; what one counted while Redis was away is added once it answers', async () => {
    const redis = await startRedis();
    const url = parsePacingUrl(redis.url, { env: true });
    if (!url) throw new Error('no url');
    const warnings: string[] = [];
    const links = [new RedisLink(url, { warning: (line) => warnings.push(line) }), new RedisLink(url)];
    const now = () => Date.now();
    const [a, b] = links.map(
      (link) => new QuotaTally(new QuotaFile(freshDir(), ID), new RedisQuota(link, ID), now),
    );
    if (!a || !b) throw new Error('no tallies');
    try {
      for (let i = 0; i < 3; i += 1) a.spend(now());
      b.spend(now());
      await Promise.all([a.settled(), b.settled()]);
      expect(await a.read()).toMatchObject({
        spent: 4,
        thisMachine: 3,
        countedOn: 'every machine sharing SVC_PACING_URL',
      });
      expect(
        Number(redis.cli('pttl', `svc:quota:${ID}:${new Date().toISOString().slice(0, 10)}`)),
      ).toBeGreaterThan(86_400_000);
      await redis.stop();
      a.spend(now());
      a.spend(now());
      await a.settled();
      const away = await a.read();
      expect(away).toMatchObject({ spent: 5, thisMachine: 5, countedOn: 'this machine' });
      expect(away.unshared).toMatch(/^SVC_PACING_URL \(redis:\/\/127\.0\.0\.1:\d+\) does not answer/);
      expect(warnings).toHaveLength(1);
      // Back, and empty (nothing persisted): it is given the two units counted meanwhile.
      await redis.restart();
      const giveUpAt = Date.now() + 5_000;
      while ((await a.read()).countedOn === 'this machine') {
        if (Date.now() > giveUpAt) throw new Error('Redis was not used again');
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect((await a.read()).spent).toBe(2);
    } finally {
      await Promise.all(links.map((link) => link.close()));
    }
  });

  it('takes no answer out of step for a count: a Redis that answers each command twice is away, never NaN', async () => {
    const redis = await startRedis();
    // Its first `honest` answers are the server's: the extra one lands on each later command in turn.
    for (let honest = 0; honest <= 4; honest += 1) {
      const broken = await startBroken(redis.port, 'extra-replies', honest);
      const url = parsePacingUrl(broken.url, { env: true });
      if (!url) throw new Error('no url');
      const link = new RedisLink(url);
      const now = () => Date.now();
      const tally = new QuotaTally(new QuotaFile(freshDir(), ID), new RedisQuota(link, ID), now);
      try {
        // Nothing was spent: 0 whether Redis was read or found away.
        expect((await tally.read()).spent, `honest answers: ${honest}`).toBe(0);
      } finally {
        await link.close();
      }
    }
  });
});
