/**
 * A key is never taken for a name: `svc auth login` asks for the key first (masked), then the
 * profile name; a name that looks like a key is refused, at the prompt and as --profile; a key
 * from SVC_API_KEY with a trailing newline (a secrets file) is the key.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../../src/emulator/index.js';
import { emulator, envFor } from '../../helpers/emulator.js';
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
