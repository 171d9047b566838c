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
    expect(listed.find((p: { current: boolean }) => p.current).name).toBe('two');
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
