import { chmodSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { emulator } from '../helpers/emulator.js';
import { freshConfigDir, runSvc } from '../helpers/svc.js';

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await emulator();
});
afterAll(() => emu.close());

/** Logs in with --with-key-stdin into a fresh config dir and returns that dir. */
async function login(key: string, profile = 'default', dir = freshConfigDir()): Promise<string> {
  const result = await runSvc(
    ['auth', 'login', '--with-key-stdin', '--base-url', emu.url, '--profile', profile],
    {
      stdin: `${key}\n`,
      env: { SVC_CONFIG_DIR: dir },
    },
  );
  expect(result.code, result.stderr).toBe(0);
  return dir;
}

describe('auth and profiles', () => {
  it('login with --with-key-stdin verifies the key, saves it 0600 and reports the mode', async () => {
    const dir = freshConfigDir();
    const result = await runSvc(['auth', 'login', '--with-key-stdin', '--base-url', emu.url], {
      stdin: emu.keys.test,
      env: { SVC_CONFIG_DIR: dir },
    });
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/test key/);
    expect(result.stderr).not.toContain(emu.keys.test);
    expect(statSync(join(dir, 'config.json')).mode & 0o777).toBe(0o600);
    expect(emu.requests({ path: '/channel_accounts' }).length).toBeGreaterThan(0);
    const orders = await runSvc(['orders', 'list', '--limit', '1', '--json'], {
      env: { SVC_CONFIG_DIR: dir },
    });
    expect(orders.code).toBe(0);
    expect(JSON.parse(orders.stdout)).toHaveLength(1);
  });

  it('a key without products:read still logs in (403 scope_missing proves it valid)', async () => {
    const key = emu.createKey({ scopes: ['orders:read'] });
    const dir = await login(key);
    const status = await runSvc(['auth', 'status', '--json'], { env: { SVC_CONFIG_DIR: dir } });
    expect(JSON.parse(status.stdout)).toMatchObject({
      profile: 'default',
      mode: 'live',
      key_source: 'profile',
    });
  });

  it('a rejected key is not saved and exits 4', async () => {
    const dir = freshConfigDir();
    const result = await runSvc(['auth', 'login', '--with-key-stdin', '--base-url', emu.url], {
      stdin: 'svc_live_doesnotexist',
      env: { SVC_CONFIG_DIR: dir },
    });
    expect(result.code).toBe(4);
    expect(result.stderr).toMatch(/rejected/);
    const status = await runSvc(['auth', 'status'], { env: { SVC_CONFIG_DIR: dir } });
    expect(status.code).toBe(4);
  });

  it('a malformed key is refused before anything is sent', async () => {
    const before = emu.requests().length;
    const result = await runSvc(['auth', 'login', '--with-key-stdin', '--base-url', emu.url], {
      stdin: 'hunter2',
    });
    expect(result.code).toBe(4);
    expect(emu.requests().length).toBe(before);
  });

  it('login without a terminal and without --with-key-stdin says how to proceed (exit 2)', async () => {
    const result = await runSvc(['auth', 'login', '--base-url', emu.url]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--with-key-stdin/);
  });

  it('a live key is never sent over plain http to a non-loopback host', async () => {
    const result = await runSvc(['orders', 'list'], {
      env: { SVC_API_KEY: emu.keys.live, SVC_BASE_URL: 'http://store.invalid' },
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/plain http/);
  });

  it('status masks the key and names each source; env beats profile; --profile beats env', async () => {
    const dir = await login(emu.keys.live, 'main');
    const env = { SVC_CONFIG_DIR: dir, SVC_API_KEY: emu.keys.test };
    const fromEnv = JSON.parse((await runSvc(['auth', 'status', '--json'], { env })).stdout);
    expect(fromEnv).toMatchObject({ key_source: 'SVC_API_KEY', mode: 'test' });
    expect(fromEnv.key).toBe(`svc_test_…${emu.keys.test.slice(-4)}`);
    const named = JSON.parse(
      (await runSvc(['--profile', 'main', 'auth', 'status', '--json'], { env })).stdout,
    );
    expect(named).toMatchObject({ key_source: 'profile', mode: 'live', base_url: emu.url });
    const human = await runSvc(['auth', 'status'], { env });
    expect(human.stdout).not.toContain(emu.keys.test);
  });

  it('profiles list, use and remove', async () => {
    const dir = await login(emu.keys.live, 'one');
    await login(emu.keys.test, 'two', dir);
    const env = { SVC_CONFIG_DIR: dir };
    const listed = JSON.parse((await runSvc(['profiles', 'list', '--json'], { env })).stdout);
    expect(listed.map((p: { name: string }) => p.name).sort()).toEqual(['one', 'two']);
    // The first login made "one" current; logging in to "two" kept it (and said so).
    expect(listed.find((p: { current: boolean }) => p.current).name).toBe('one');
    expect((await runSvc(['profiles', 'use', 'one'], { env })).code).toBe(0);
    expect(JSON.parse((await runSvc(['auth', 'status', '--json'], { env })).stdout).profile).toBe('one');
    expect((await runSvc(['profiles', 'use', 'three'], { env })).code).toBe(2);
    expect((await runSvc(['profiles', 'remove', 'one'], { env })).code).toBe(0);
    const after = JSON.parse((await runSvc(['profiles', 'list', '--json'], { env })).stdout);
    expect(after.map((p: { name: string }) => p.name)).toEqual(['two']);
  });

  it('logout forgets the key', async () => {
    const dir = await login(emu.keys.live);
    expect((await runSvc(['auth', 'logout'], { env: { SVC_CONFIG_DIR: dir } })).code).toBe(0);
    const orders = await runSvc(['orders', 'list'], { env: { SVC_CONFIG_DIR: dir } });
    expect(orders.code).toBe(4);
  });

  it('warns about and tightens a config file readable by others', async () => {
    const dir = await login(emu.keys.live);
    chmodSync(join(dir, 'config.json'), 0o644);
    const result = await runSvc(['profiles', 'list'], { env: { SVC_CONFIG_DIR: dir } });
    expect(result.stderr).toMatch(/readable by others/);
    expect(statSync(join(dir, 'config.json')).mode & 0o777).toBe(0o600);
  });
});

/** The store names the emulator's seeded channel accounts carry, sorted. */
const SEEDED_STORES = [
  'Northwind Goods',
  'Northwind Goods LLC',
  'NorthwindHandmade',
  'northwind-goods',
  'northwind_goods',
  'northwind_goods_uk',
];

const SEEDED_ACCOUNTS = [
  'Amazon US',
  'eBay US',
  'eBay UK',
  'Etsy',
  'Shopify storefront',
  'Walmart Marketplace',
];

describe('auth status checks the key against the service', () => {
  it('a key the service refuses exits 4 with the reason, and advice naming SVC_API_KEY', async () => {
    const result = await runSvc(['auth', 'status'], {
      env: { SVC_BASE_URL: emu.url, SVC_API_KEY: 'svc_live_zzz' },
    });
    expect(result.code).toBe(4);
    expect(result.stderr).toContain('api_key_invalid');
    expect(result.stderr).toContain('SVC_API_KEY');
    expect(result.stderr).not.toContain('svc auth login');
    expect(result.stdout).toContain('svc_live_…');
  });

  it('a saved key that was revoked exits 4 and says to log in again for that profile', async () => {
    const key = emu.createKey();
    const dir = await login(key, 'shop');
    emu.revokeKey(key);
    const result = await runSvc(['auth', 'status', '--json'], { env: { SVC_CONFIG_DIR: dir } });
    expect(result.code).toBe(4);
    expect(result.stderr).toContain('svc auth login --profile shop');
    expect(JSON.parse(result.stdout)).toMatchObject({ profile: 'shop', verified: false });
  });

  it('a store whose subscription lapsed exits 4 with plan_not_eligible', async () => {
    const result = await runSvc(['auth', 'status'], {
      env: { SVC_BASE_URL: emu.url, SVC_API_KEY: emu.keys.lapsed },
    });
    expect(result.code).toBe(4);
    expect(result.stderr).toContain('plan_not_eligible');
  });

  it('shows the store, the rate-limit tier and each read scope; write scopes are not probed', async () => {
    const result = await runSvc(['auth', 'status', '--json'], {
      env: { SVC_BASE_URL: emu.url, SVC_API_KEY: emu.keys.read_only },
    });
    expect(result.code, result.stderr).toBe(0);
    const status = JSON.parse(result.stdout);
    expect(status).toMatchObject({
      verified: true,
      mode: 'live',
      key_source: 'SVC_API_KEY',
      key_storage: null,
      store: SEEDED_STORES,
      rate_limit: { burst: 80, per_second: 4, tier: 'top' },
      read_scopes: { 'products:read': 'ok', 'orders:read': 'ok', 'events:read': 'scope_missing' },
      write_scopes: 'not probed',
    });
    const human = await runSvc(['auth', 'status', '-o', 'table'], {
      env: { SVC_BASE_URL: emu.url, SVC_API_KEY: emu.keys.trial },
    });
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toMatch(/accounts\s+6 channel accounts: Amazon US, eBay US, eBay UK, Etsy/);
    expect(human.stdout).toMatch(/burst 40, 2 requests\/s \(trial tier\)/);
    expect(human.stdout).toMatch(/write scopes\s+not probed/);
  });
});

describe('two stores, no confusion', () => {
  it('logging in to a second profile keeps the current one and says so; --use switches', async () => {
    const dir = await login(emu.keys.live, 'storeA');
    const second = await runSvc(
      ['auth', 'login', '--with-key-stdin', '--base-url', emu.url, '--profile', 'storeB'],
      { stdin: emu.keys.test, env: { SVC_CONFIG_DIR: dir } },
    );
    expect(second.code, second.stderr).toBe(0);
    expect(second.stderr).toContain('current profile is still "storeA"');
    const env = { SVC_CONFIG_DIR: dir };
    expect(JSON.parse((await runSvc(['auth', 'status', '--json'], { env })).stdout).profile).toBe('storeA');

    const third = await runSvc(
      ['auth', 'login', '--with-key-stdin', '--base-url', emu.url, '--profile', 'storeC', '--use'],
      { stdin: emu.keys.live, env },
    );
    expect(third.code, third.stderr).toBe(0);
    expect(third.stderr).toContain('now the current profile');
    expect(JSON.parse((await runSvc(['auth', 'status', '--json'], { env })).stdout).profile).toBe('storeC');
  });

  it('profiles list shows each profile channel accounts, URL, masked key and where the key is kept', async () => {
    const dir = await login(emu.keys.live, 'main');
    const listed = await runSvc(['profiles', 'list', '--json'], { env: { SVC_CONFIG_DIR: dir } });
    expect(JSON.parse(listed.stdout)).toEqual([
      {
        name: 'main',
        current: true,
        accounts: SEEDED_ACCOUNTS,
        store: SEEDED_STORES,
        base_url: emu.url,
        key: `svc_live_…${emu.keys.live.slice(-4)}`,
        mode: 'live',
        key_storage: 'file',
      },
    ]);
    const table = await runSvc(['profiles', 'list', '-o', 'table'], { env: { SVC_CONFIG_DIR: dir } });
    expect(table.stdout).toMatch(/ACCOUNTS/);
    expect(table.stdout).toContain('Amazon US');
  });
});
