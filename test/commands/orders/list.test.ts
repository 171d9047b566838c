/**
 * An incremental export's mark follows the store, not the key: a routine key rotation, or
 * another profile of the same store, carries on from it; another store at the same address
 * is refused by name.
 */
import type { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { main } from '../../../src/cli/main.js';
import { createManualClock, type ManualClock, type RunningEmulator } from '../../../src/emulator/index.js';
import type { OrderRecord } from '../../../src/emulator/model.js';
import { emulatorPerTest } from '../../helpers/emulator.js';
import { memoryIO } from '../../helpers/memory-io.js';
import { type StoreRouter, storeRouter } from '../../helpers/store-router.js';
import { freshConfigDir } from '../../helpers/svc.js';

// The bundle defines it; main() runs here from the sources.
(globalThis as { __SVC_VERSION__?: string }).__SVC_VERSION__ ??= '0.0.0-test';

const start = emulatorPerTest({ rateLimit: false, orders: 30 });
const routers: StoreRouter[] = [];
afterEach(async () => {
  await Promise.all(routers.splice(0).map((router) => router.close()));
});

/** Runs `svc ARGS` in-process with `env` (and standard input, when given). */
async function svc(args: string[], env: Record<string, string>, stdin?: string) {
  const io = memoryIO();
  if (stdin !== undefined) (io.stdin as PassThrough).end(stdin);
  const code = await main(['node', 'svc', ...args], { io, env: { NO_COLOR: '1', ...env } });
  return { code, out: io.out(), err: io.err() };
}

const EXPORT = ['orders', 'list', '--since-last', 'nightly', '-o', 'ndjson'];
const idsOf = (out: string) =>
  out
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((line) => (JSON.parse(line) as { id: string }).id);

/** `count` new orders, a second apart, by the emulator's clock. */
function arrive(emu: RunningEmulator, clock: ManualClock, count: number): string[] {
  clock.advance(60_000);
  return Array.from({ length: count }, () => {
    clock.advance(1_000);
    return (emu.arrivals.arrive(clock.now()) as OrderRecord).id;
  });
}

describe('orders list --since-last follows the store, not the key', () => {
  it('a routine key rotation carries on from the mark: the new key exports only what is new', async () => {
    const clock = createManualClock();
    const emu = await start({ clock });
    const config = freshConfigDir();
    const first = await svc(EXPORT, {
      SVC_CONFIG_DIR: config,
      SVC_BASE_URL: emu.url,
      SVC_API_KEY: emu.keys.live,
    });
    expect(first.code, first.err).toBe(0);
    expect(idsOf(first.out)).toHaveLength(30);

    const rotated = emu.createKey();
    emu.revokeKey(emu.keys.live);
    const arrived = arrive(emu, clock, 3);
    const second = await svc(EXPORT, { SVC_CONFIG_DIR: config, SVC_BASE_URL: emu.url, SVC_API_KEY: rotated });
    expect(second.code, second.err).toBe(0);
    expect(idsOf(second.out).sort()).toEqual([...arrived].sort());
    expect(second.err).not.toMatch(/belongs to/);
  });

  it('two profiles of one store share the mark', async () => {
    const clock = createManualClock();
    const emu = await start({ clock });
    const config = freshConfigDir();
    for (const [profile, key] of [
      ['shop-a', emu.keys.live],
      ['shop-a-2', emu.createKey()],
    ]) {
      const login = await svc(
        [
          'auth',
          'login',
          '--with-key-stdin',
          '--insecure-storage',
          '--base-url',
          emu.url,
          '--profile',
          profile,
        ],
        { SVC_CONFIG_DIR: config },
        key,
      );
      expect(login.code, login.err).toBe(0);
    }
    expect((await svc([...EXPORT, '--profile', 'shop-a'], { SVC_CONFIG_DIR: config })).code).toBe(0);
    const arrived = arrive(emu, clock, 2);
    const other = await svc([...EXPORT, '--profile', 'shop-a-2'], { SVC_CONFIG_DIR: config });
    expect(other.code, other.err).toBe(0);
    expect(idsOf(other.out).sort()).toEqual([...arrived].sort());
  });

  it('another store at the same address is refused (exit 2) in a sentence that reads, before any order is read', async () => {
    const storeA = await start({ seed: 1 });
    const storeB = await start({ seed: 2 });
    const router = await storeRouter({ [storeA.keys.live]: storeA.url, [storeB.keys.live]: storeB.url });
    routers.push(router);
    const config = freshConfigDir();
    const made = await svc(EXPORT, {
      SVC_CONFIG_DIR: config,
      SVC_BASE_URL: router.url,
      SVC_API_KEY: storeA.keys.live,
    });
    expect(made.code, made.err).toBe(0);

    const refused = await svc(EXPORT, {
      SVC_CONFIG_DIR: config,
      SVC_BASE_URL: router.url,
      SVC_API_KEY: storeB.keys.live,
    });
    expect(refused.code).toBe(2);
    expect(refused.out).toBe('');
    expect(refused.err).toMatch(/the mark "nightly" belongs to another store at http:\/\/127\.0\.0\.1:\d+/);
    expect(refused.err).toMatch(/another --since-last name/);
    expect(refused.err).not.toMatch(/run's the|the SVC_API_KEY key/);
    expect(storeB.requests({ path: '/orders' })).toHaveLength(0);
  });

  it('a key that may not list channel accounts ties the mark to itself, and says so; another such key is refused with the way out', async () => {
    const emu = await start();
    const config = freshConfigDir();
    const ordersOnly = emu.createKey({ scopes: ['orders:read'] });
    const env = { SVC_CONFIG_DIR: config, SVC_BASE_URL: emu.url };
    const first = await svc(EXPORT, { ...env, SVC_API_KEY: ordersOnly });
    expect(first.code, first.err).toBe(0);
    expect(first.err).toMatch(/cannot list the store's channel accounts \(it lacks products:read\)/);
    const again = await svc(EXPORT, { ...env, SVC_API_KEY: ordersOnly });
    expect(again.code, again.err).toBe(0);
    const other = await svc(EXPORT, { ...env, SVC_API_KEY: emu.createKey({ scopes: ['orders:read'] }) });
    expect(other.code).toBe(2);
    expect(other.err).toMatch(/names its store only by the key that saved it.*delete .*nightly\.json/);
  });

  it('--help says the mark is on creation time, so a --status filter sees an order once, in the status it had then', async () => {
    const help = await svc(['orders', 'list', '--help'], { SVC_CONFIG_DIR: freshConfigDir() });
    expect(help.code).toBe(0);
    const text = help.out.replace(/\s+/g, ' ');
    expect(text).toMatch(/creation time/);
    expect(text).toMatch(/once, in the status it had/);
    expect(text).toMatch(/key rotation/);
  });
});
