/**
 * `svc auth status`: the key in force, where it comes from, checked against the service; the
 * channel accounts named by their labels.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../../src/emulator/index.js';
import { emulator } from '../../helpers/emulator.js';
import { accountNames, loginProfile, SEEDED_STORES } from '../../helpers/profiles.js';
import { runSvc } from '../../helpers/svc.js';

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await emulator();
});
afterAll(() => emu.close());

describe('svc auth status', () => {
  it('status masks the key and names each source; env beats profile; --profile beats env', async () => {
    const dir = await loginProfile(emu, emu.keys.live, 'main');
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
    const dir = await loginProfile(emu, key, 'shop');
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

describe('the channel accounts, by their labels', () => {
  let emu: RunningEmulator;
  beforeAll(async () => {
    emu = await emulator({ rateLimit: false });
  });
  beforeEach(() => emu.reset());
  afterAll(() => emu.close());

  const loggedIn = async () => ({ SVC_CONFIG_DIR: await loginProfile(emu, emu.keys.live) });

  it('auth status names the channel accounts by label, not shop names as "the store"', async () => {
    const { labels, shops } = accountNames(emu);
    expect(labels.length).toBeGreaterThan(3);
    const env = await loggedIn();
    const text = await runSvc(['auth', 'status', '-o', 'table'], { env });
    expect(text.code, text.stderr).toBe(0);
    const line = text.stdout.split('\n').find((each) => each.startsWith('accounts')) ?? '';
    expect(line).toContain(`${labels.length} channel accounts`);
    for (const label of labels) expect(line).toContain(label);
    expect(text.stdout).not.toMatch(/^store\b/m);
    for (const shop of shops.filter((name) => !labels.includes(name)))
      expect(text.stdout).not.toContain(shop);
    const json = JSON.parse((await runSvc(['auth', 'status', '--json'], { env })).stdout);
    expect(json.channel_accounts.map((account: { label: string }) => account.label)).toEqual(labels);
    expect(json.channel_accounts[0]).toEqual({
      id: expect.stringMatching(/^chac_/),
      channel: expect.any(String),
      label: labels[0],
    });
  });
});
