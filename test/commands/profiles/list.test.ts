/**
 * `svc profiles list`: each profile with its store, the accounts seen at login by label, and a
 * config file kept private.
 */
import { chmodSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../../src/emulator/index.js';
import { emulator } from '../../helpers/emulator.js';
import { accountNames, loginProfile, SEEDED_ACCOUNTS, SEEDED_STORES } from '../../helpers/profiles.js';
import { runSvc } from '../../helpers/svc.js';

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await emulator();
});
afterAll(() => emu.close());

describe('svc profiles list', () => {
  it('profiles list shows each profile channel accounts, URL, masked key and where the key is kept', async () => {
    const dir = await loginProfile(emu, emu.keys.live, 'main');
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

  it('warns about and tightens a config file readable by others', async () => {
    const dir = await loginProfile(emu, emu.keys.live);
    chmodSync(join(dir, 'config.json'), 0o644);
    const result = await runSvc(['profiles', 'list'], { env: { SVC_CONFIG_DIR: dir } });
    expect(result.stderr).toMatch(/readable by others/);
    expect(statSync(join(dir, 'config.json')).mode & 0o777).toBe(0o600);
  });
});

describe('the channel accounts, by their labels', () => {
  let emu: RunningEmulator;
  beforeAll(async () => {
    emu = await emulator({ rateLimit: false });
  });
  beforeEach(() => emu.reset());
  afterAll(() => emu.close());

  const loggedIn = async () => ({ SVC_CONFIG_DIR: await loginProfile(emu, emu.keys.live) });

  it('profiles list shows the accounts seen at login by label', async () => {
    const { labels } = accountNames(emu);
    const env = await loggedIn();
    const table = await runSvc(['profiles', 'list', '-o', 'table'], { env: { ...env, COLUMNS: '400' } });
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout.split('\n')[0]).toMatch(/\bACCOUNTS\b/);
    expect(table.stdout.split('\n')[0]).not.toMatch(/\bSTORE\b/);
    for (const label of labels) expect(table.stdout).toContain(label);
    const json = JSON.parse((await runSvc(['profiles', 'list', '--json'], { env })).stdout);
    expect(json[0].accounts).toEqual(labels);
  });
});
