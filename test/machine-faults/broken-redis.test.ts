/**
 * A broken Redis never breaks a push: a protocol error, a wrong type, a reply too many, a
 * database that does not exist are all Redis being away: one warning, local pacing, the push
 * goes on to the end with its report whole (docs/guide.md, Several jobs, one key).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { brokenRedisPerTest, type RedisFault } from '../helpers/broken-redis.js';
import { emulatorPerTest } from '../helpers/emulator.js';
import { redisInstalled, redisPerTest } from '../helpers/redis-server.js';
import { mismatches, quantityFile } from '../helpers/stock-rows.js';
import { runSvc } from '../helpers/svc.js';
import { tempDir } from '../helpers/temp-dir.js';

const hasRedis = redisInstalled();
const startRedis = redisPerTest();
const startBroken = brokenRedisPerTest();
const startEmulator = emulatorPerTest({ products: 40, bucket: 5, drainPerSecond: 10, channelDelayMs: 0 });
const scratch = () => tempDir('svc-broken-redis-');

const warnings = (stderr: string) => stderr.split('\n').filter((line) => line.startsWith('warning:'));

/** A push of 60 SKUs, a batch each, sharing pacing through `pacingUrl` (`midway` runs after its 10th batch). */
async function pushThrough(pacingUrl: string, midway?: () => void) {
  const emu = await startEmulator();
  const file = quantityFile(emu, 0, 60, 3000);
  const report = join(scratch(), 'report.csv');
  const env = {
    SVC_BASE_URL: emu.url,
    SVC_API_KEY: emu.keys.live,
    SVC_CONFIG_DIR: scratch(),
    SVC_PACING_URL: pacingUrl,
  };
  const result = await runSvc(['inventory', 'push', file.path, '--batch-size', '1', '--report', report], {
    env,
    process: true,
    timeoutMs: 60_000,
    actWhen: midway && {
      when: () => emu.requests({ method: 'POST', path: '/inventory/batch' }).length >= 10,
      act: midway,
    },
  });
  return { result, emu, file, report, env };
}

describe.skipIf(!hasRedis)('a Redis that breaks the protocol (redis-server installed)', () => {
  for (const fault of ['extra-replies', 'garbage'] as RedisFault[]) {
    it(`${fault}: one warning, the push finishes on local pacing, the report whole`, async () => {
      const redis = await startRedis();
      const broken = await startBroken(redis.port, fault);
      const { result, emu, file, report } = await pushThrough(broken.url);
      expect(broken.broken()).toBeGreaterThan(0);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr).not.toMatch(/TypeError|\n\s+at /);
      // A reply out of step is never taken for the quota count the plan line states.
      expect(result.stderr).toMatch(/svc has (spent|counted) [\d,]+ /);
      expect(result.stderr).not.toContain('NaN');
      const said = warnings(result.stderr);
      expect(said, result.stderr).toHaveLength(1);
      expect(said[0]).toContain('SVC_PACING_URL');
      expect(mismatches(emu, file.rows)).toEqual([]);
      expect(readFileSync(report, 'utf8').trim().split('\r\n')).toHaveLength(61);
    });
  }

  it('TIME answered out of step after a reconnection: the shared clock stays, the push ends', async () => {
    const redis = await startRedis();
    // The first connection's TIME is true; the one made after the drop gets a lock take's reply.
    const broken = await startBroken(redis.port, 'time-out-of-step', 1);
    const { result, emu, file, report } = await pushThrough(broken.url, () => broken.dropConnections());
    expect(broken.broken()).toBeGreaterThan(0);
    // Read as 1 s since 1970, that reply put every shared time 56 years back: the push hung
    // until killed. (A 429 at the moment Redis is lost may come, as when Redis stops mid-way.)
    expect(result.code, result.stderr).toBe(0);
    expect(mismatches(emu, file.rows)).toEqual([]);
    expect(readFileSync(report, 'utf8').trim().split('\r\n')).toHaveLength(61);
  });

  it('a database index the server does not have: warned about by a push, refused by doctor', async () => {
    const redis = await startRedis();
    const { result, emu, file, env } = await pushThrough(`${redis.url}/99`);
    expect(result.code, result.stderr).toBe(0);
    const said = warnings(result.stderr);
    expect(said, result.stderr).toHaveLength(1);
    // Refused (or, on a loaded machine, not answered within its bound): Redis is away either way.
    expect(said[0]).toMatch(/SVC_PACING_URL .*\/99/);
    expect(mismatches(emu, file.rows)).toEqual([]);
    // Nothing went to db 0 instead.
    expect(redis.cli('--scan').trim()).toBe('');
    const doctor = await runSvc(['doctor', '--json'], { env });
    const check = JSON.parse(doctor.stdout).checks.find((c: { name: string }) => c.name === 'pacing url');
    expect(check.status).toBe('fail');
    expect(check.detail).toMatch(/DB index|database/i);
  }, 60_000);
});
