/**
 * A key is never taken for a name: `svc auth login` asks for the key first (masked), then the
 * profile name; a name that looks like a key is refused, at the prompt and as --profile; a key
 * from SVC_API_KEY with a trailing newline (a secrets file) is the key.
 */
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../../src/emulator/index.js';
import { emulator, envFor } from '../../helpers/emulator.js';
import { loginProfile } from '../../helpers/profiles.js';
import { freshConfigDir, runSvc } from '../../helpers/svc.js';
import { runInTerminal } from '../../helpers/terminal.js';

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await emulator({ rateLimit: false });
});
afterAll(() => emu.close());

const config = (dir: string) => JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'));

describe('svc auth login on a terminal', () => {
  it('asks for the key first, masked, then the profile name', async () => {
    const dir = freshConfigDir();
    const result = await runInTerminal(['auth', 'login', '--base-url', emu.url, '--insecure-storage'], {
      env: { SVC_CONFIG_DIR: dir, DBUS_SESSION_BUS_ADDRESS: undefined },
      keys: [
        { when: /API key/, keys: `${emu.keys.live}\r` },
        { when: /Profile name/, keys: 'shop\r' },
      ],
    });
    expect(result.code, result.output).toBe(0);
    const keyAt = result.output.indexOf('API key');
    const nameAt = result.output.indexOf('Profile name');
    expect(keyAt).toBeGreaterThanOrEqual(0);
    expect(nameAt).toBeGreaterThan(keyAt);
    // Masked: each character shown as *, the key itself never.
    expect(result.output).toContain('*'.repeat(emu.keys.live.length));
    expect(result.output).not.toContain(emu.keys.live);
    expect(Object.keys(config(dir).profiles)).toEqual(['shop']);
  });

  it('refuses a profile name that looks like a key, and takes the next one', async () => {
    const dir = freshConfigDir();
    const pasted = emu.keys.live;
    const result = await runInTerminal(['auth', 'login', '--base-url', emu.url, '--insecure-storage'], {
      env: { SVC_CONFIG_DIR: dir, DBUS_SESSION_BUS_ADDRESS: undefined },
      keys: [
        { when: /API key/, keys: `${emu.keys.live}\r` },
        { when: /Profile name/, keys: `${pasted}\r` },
        { when: /looks like an API key/, keys: 'shop\r' },
      ],
    });
    expect(result.code, result.output).toBe(0);
    expect(result.output).not.toContain(pasted);
    expect(Object.keys(config(dir).profiles)).toEqual(['shop']);
  });
});

describe('a profile name that looks like a key', () => {
  it('is refused as --profile, with exit 2 and without the key in the message', async () => {
    for (const args of [
      ['auth', 'login', '--with-key-stdin', '--base-url', emu.url],
      ['orders', 'list'],
      ['auth', 'status'],
    ]) {
      const dir = freshConfigDir();
      const result = await runSvc([...args, '--profile', emu.keys.test], {
        stdin: emu.keys.live,
        env: { SVC_CONFIG_DIR: dir },
      });
      expect(result.code, `${args.join(' ')}: ${result.stderr}`).toBe(2);
      expect(result.stderr).toMatch(/looks like an API key/);
      expect(result.stderr).not.toContain(emu.keys.test);
    }
  });

  it('saved by an older svc, it is never printed whole: profiles list, auth status, doctor --json', async () => {
    const dir = freshConfigDir();
    mkdirSync(dir, { recursive: true });
    const name = emu.keys.live;
    writeFileSync(
      join(dir, 'config.json'),
      JSON.stringify({
        current_profile: name,
        profiles: { [name]: { base_url: emu.url, api_key: emu.keys.live, key_storage: 'file' } },
      }),
      { mode: 0o600 },
    );
    for (const args of [
      ['profiles', 'list'],
      ['profiles', 'list', '--json'],
      ['auth', 'status', '--json'],
      ['doctor', '--json'],
    ]) {
      const result = await runSvc(args, { env: { SVC_CONFIG_DIR: dir } });
      expect(`${result.stdout}${result.stderr}`, args.join(' ')).not.toContain(name);
    }
  });
});

describe('SVC_API_KEY from a secrets file', () => {
  it('surrounding whitespace, a trailing newline included, is trimmed', async () => {
    const env = envFor(emu);
    const result = await runSvc(['orders', 'list', '--limit', '1', '--json'], {
      env: { ...env, SVC_API_KEY: `  ${env.SVC_API_KEY}\n` },
    });
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toHaveLength(1);
  });
});

describe('auth login with --with-key-stdin', () => {
  let hostEmu: RunningEmulator;
  beforeAll(async () => {
    hostEmu = await emulator();
  });
  afterAll(() => hostEmu.close());

  it('login with --with-key-stdin verifies the key, saves it 0600 and reports the mode', async () => {
    const dir = freshConfigDir();
    const result = await runSvc(['auth', 'login', '--with-key-stdin', '--base-url', hostEmu.url], {
      stdin: hostEmu.keys.test,
      env: { SVC_CONFIG_DIR: dir },
    });
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/test key/);
    expect(result.stderr).not.toContain(hostEmu.keys.test);
    expect(statSync(join(dir, 'config.json')).mode & 0o777).toBe(0o600);
    expect(hostEmu.requests({ path: '/channel_accounts' }).length).toBeGreaterThan(0);
    const orders = await runSvc(['orders', 'list', '--limit', '1', '--json'], {
      env: { SVC_CONFIG_DIR: dir },
    });
    expect(orders.code).toBe(0);
    expect(JSON.parse(orders.stdout)).toHaveLength(1);
  });

  it('a key without products:read still logs in (403 scope_missing proves it valid)', async () => {
    const key = hostEmu.createKey({ scopes: ['orders:read'] });
    const dir = await loginProfile(hostEmu, key);
    const status = await runSvc(['auth', 'status', '--json'], { env: { SVC_CONFIG_DIR: dir } });
    expect(JSON.parse(status.stdout)).toMatchObject({
      profile: 'default',
      mode: 'live',
      key_source: 'profile',
    });
  });

  it('a rejected key is not saved and exits 4', async () => {
    const dir = freshConfigDir();
    const result = await runSvc(['auth', 'login', '--with-key-stdin', '--base-url', hostEmu.url], {
      stdin: 'svc_live_doesnotexist',
      env: { SVC_CONFIG_DIR: dir },
    });
    expect(result.code).toBe(4);
    expect(result.stderr).toMatch(/rejected/);
    const status = await runSvc(['auth', 'status'], { env: { SVC_CONFIG_DIR: dir } });
    expect(status.code).toBe(4);
  });

  it('a malformed key is refused before anything is sent', async () => {
    const before = hostEmu.requests().length;
    const result = await runSvc(['auth', 'login', '--with-key-stdin', '--base-url', hostEmu.url], {
      stdin: 'hunter2',
    });
    expect(result.code).toBe(4);
    expect(hostEmu.requests().length).toBe(before);
  });

  it('login without a terminal and without --with-key-stdin says how to proceed (exit 2)', async () => {
    const result = await runSvc(['auth', 'login', '--base-url', hostEmu.url]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--with-key-stdin/);
  });

  it('logging in to a second profile keeps the current one and says so; --use switches', async () => {
    const dir = await loginProfile(hostEmu, hostEmu.keys.live, 'storeA');
    const second = await runSvc(
      ['auth', 'login', '--with-key-stdin', '--base-url', hostEmu.url, '--profile', 'storeB'],
      { stdin: hostEmu.keys.test, env: { SVC_CONFIG_DIR: dir } },
    );
    expect(second.code, second.stderr).toBe(0);
    expect(second.stderr).toContain('current profile is still "storeA"');
    const env = { SVC_CONFIG_DIR: dir };
    expect(JSON.parse((await runSvc(['auth', 'status', '--json'], { env })).stdout).profile).toBe('storeA');

    const third = await runSvc(
      ['auth', 'login', '--with-key-stdin', '--base-url', hostEmu.url, '--profile', 'storeC', '--use'],
      { stdin: hostEmu.keys.live, env },
    );
    expect(third.code, third.stderr).toBe(0);
    expect(third.stderr).toContain('now the current profile');
    expect(JSON.parse((await runSvc(['auth', 'status', '--json'], { env })).stdout).profile).toBe('storeC');
  });
});
