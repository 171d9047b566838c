/**
 * The link to the Redis of SVC_PACING_URL: the clock it shares with the processes of other
 * machines comes only from an answer to TIME, never from a reply out of step.
 */
import { describe, expect, it } from 'vitest';
import { parsePacingUrl } from '../../../../src/client/pacing/pacing-url.js';
import { RedisLink } from '../../../../src/client/pacing/redis-link.js';
import { brokenRedisPerTest } from '../../../helpers/broken-redis.js';
import { redisInstalled, redisPerTest } from '../../../helpers/redis-server.js';

const startRedis = redisPerTest();
const startBroken = brokenRedisPerTest();

describe.skipIf(!redisInstalled())('the clock of a Redis link (redis-server installed)', () => {
  it('takes Redis’s clock from its TIME: the same machine, an offset of milliseconds', async () => {
    const redis = await startRedis();
    const url = parsePacingUrl(redis.url, { env: true });
    if (!url) throw new Error('no url');
    const link = new RedisLink(url);
    try {
      await link.run('a ping', (client) => client.ping());
      expect(Math.abs(link.clockOffsetMs)).toBeLessThan(1_000);
    } finally {
      await link.close();
    }
  });

  it('keeps its clock when TIME is answered with another command’s reply (a lock take’s 1, "", "0")', async () => {
    const redis = await startRedis();
    const broken = await startBroken(redis.port, 'time-out-of-step', 0);
    const url = parsePacingUrl(broken.url, { env: true });
    if (!url) throw new Error('no url');
    const link = new RedisLink(url);
    try {
      await link.run('a ping', (client) => client.ping()).catch(() => undefined);
      expect(broken.broken()).toBe(1);
      // Read as seconds 1 and no microseconds, the reply put every shared time 56 years back.
      expect(link.clockOffsetMs).toBe(0);
    } finally {
      await link.close();
    }
  });
});
