/**
 * `svc doctor`: one line per check (ok, warn, fail) with the fix, --json for support tickets
 * with no secret in it, exit 0 unless a check fails.
 */
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type CaptureProxy, captureProxy } from '../helpers/capture-proxy.js';
import { emulatorPerTest, envFor } from '../helpers/emulator.js';
import { freshConfigDir, runSvc } from '../helpers/svc.js';

const start = emulatorPerTest();

/** No proxy variable leaks in from the machine running the tests. */
const NO_PROXY_ENV = {
  HTTP_PROXY: undefined,
  HTTPS_PROXY: undefined,
  http_proxy: undefined,
  https_proxy: undefined,
  NO_PROXY: undefined,
  no_proxy: undefined,
  NODE_EXTRA_CA_CERTS: undefined,
};

interface Check {
  name: string;
  status: 'ok' | 'warn' | 'fail' | 'skip';
  detail: string;
  fix?: string;
}

const statusOf = (checks: Check[]) => Object.fromEntries(checks.map((check) => [check.name, check.status]));

describe('svc doctor', () => {
  it('on a fresh config against the emulator: every check ok, and no secret in --json', async () => {
    const emu = await start();
    const result = await runSvc(['doctor', '--json'], { env: { ...envFor(emu), ...NO_PROXY_ENV } });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).not.toContain(emu.keys.live);
    const report = JSON.parse(result.stdout) as { ok: boolean; checks: Check[] };
    expect(report.ok).toBe(true);
    expect(statusOf(report.checks)).toEqual({
      config: 'ok',
      profile: 'ok',
      service: 'ok',
      key: 'ok',
      clock: 'ok',
      proxy: 'ok',
      tls: 'ok',
      'rate limit': 'ok',
      'shared pacing': 'ok',
      'pacing url': 'ok',
      'write quota': 'ok',
      journals: 'ok',
      marks: 'ok',
      node: 'ok',
    });
    expect(report.checks.find((c) => c.name === 'rate limit')?.detail).toContain('burst 80');
  });

  it('after a login the key comes from the profile; the human report is one line per check', async () => {
    const emu = await start();
    const dir = freshConfigDir();
    const login = await runSvc(['auth', 'login', '--with-key-stdin', '--base-url', emu.url], {
      stdin: emu.keys.live,
      env: { SVC_CONFIG_DIR: dir },
    });
    expect(login.code, login.stderr).toBe(0);
    const result = await runSvc(['doctor', '-o', 'table'], { env: { SVC_CONFIG_DIR: dir, ...NO_PROXY_ENV } });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(
      /^ok\s+profile\s+"default" \(the current profile\); key svc_live_….*from the profile/m,
    );
    expect(result.stdout).toMatch(/^ok\s+key\s+accepted/m);
    expect(result.stdout).not.toContain(emu.keys.live);
    expect(result.stdout).toMatch(/nothing failed/);
  });

  it('with HTTP_PROXY set and a skewed service clock, those checks warn and doctor still exits 0', async () => {
    const emu = await start({ clock: { now: () => Date.now() + 120_000 } });
    let proxy: CaptureProxy | undefined;
    try {
      proxy = await captureProxy();
      const result = await runSvc(['doctor', '--json'], {
        env: { ...envFor(emu), ...NO_PROXY_ENV, HTTP_PROXY: `http://user:s3cret@${proxy.url.slice(7)}` },
      });
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).not.toContain('s3cret');
      const report = JSON.parse(result.stdout) as { checks: Check[] };
      const checks = Object.fromEntries(report.checks.map((check) => [check.name, check]));
      expect(checks.clock).toMatchObject({ status: 'warn' });
      expect(checks.clock?.detail).toMatch(/behind the service by 1[12]\d s/);
      expect(checks.proxy).toMatchObject({ status: 'warn' });
      expect(checks.proxy?.detail).toContain('HTTP_PROXY');
      expect(checks.proxy?.detail).toMatch(/bypass|direct/);
      expect(checks.key).toMatchObject({ status: 'ok' });
      // Loopback never goes through the proxy: it saw nothing.
      expect(proxy.captured).toEqual([]);
    } finally {
      await proxy?.close();
    }
  });

  it('a refused key fails its check with the fix, and doctor exits 1', async () => {
    const emu = await start();
    const result = await runSvc(['doctor'], {
      env: { ...envFor(emu), ...NO_PROXY_ENV, SVC_API_KEY: 'svc_live_notarealkey' },
    });
    expect(result.code).toBe(1);
    // Piped: a line per check, its name, then what it found.
    expect(result.stdout).toMatch(/^key\tfail: .*api_key_invalid.*; fix: .*SVC_API_KEY/m);
    expect(result.stdout).toMatch(/^service\tok: /m);
    expect(result.stderr).toMatch(/1 check failed: key/);
  });

  it('a service that cannot be reached fails its check, quickly, and later checks that need it are skipped', async () => {
    const emu = await start();
    const url = emu.url;
    await emu.close();
    const result = await runSvc(['doctor', '--json'], {
      env: { SVC_BASE_URL: url, SVC_API_KEY: emu.keys.live, ...NO_PROXY_ENV },
    });
    expect(result.code).toBe(1);
    const checks = statusOf((JSON.parse(result.stdout) as { checks: Check[] }).checks);
    expect(checks).toMatchObject({ service: 'fail', key: 'skip', clock: 'skip', 'rate limit': 'skip' });
  });

  it('warns about pending resume journals (naming the command that resumes) and a loose config file', async () => {
    const emu = await start();
    const dir = freshConfigDir();
    await runSvc(['auth', 'login', '--with-key-stdin', '--base-url', emu.url], {
      stdin: emu.keys.live,
      env: { SVC_CONFIG_DIR: dir },
    });
    chmodSync(join(dir, 'config.json'), 0o644);
    mkdirSync(join(dir, 'journals'), { mode: 0o700 });
    writeFileSync(
      join(dir, 'journals', 'inventory-0123456789abcdef-00112233445566778899aabbccddeeff.json'),
      JSON.stringify({
        version: 1,
        kind: 'inventory',
        path: '/data/stock.csv',
        sha256: '00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff',
        identity: '0123456789abcdef',
        batch_size: 100,
        total_batches: 10,
        map: null,
        confirmed: [[0, 3]],
        started_at: '2026-01-01T00:00:00.000Z',
        updated_at: '2026-01-01T00:01:00.000Z',
      }),
      { mode: 0o600 },
    );
    const result = await runSvc(['doctor', '--json'], { env: { SVC_CONFIG_DIR: dir, ...NO_PROXY_ENV } });
    expect(result.code, result.stderr).toBe(0);
    const checks = Object.fromEntries(
      (JSON.parse(result.stdout) as { checks: Check[] }).checks.map((check) => [check.name, check]),
    );
    expect(checks.config).toMatchObject({ status: 'warn' });
    expect(checks.config?.detail).toMatch(/readable by others/);
    expect(checks.journals).toMatchObject({ status: 'warn' });
    expect(checks.journals?.detail).toContain('/data/stock.csv');
    expect(checks.journals?.detail).toContain('4 of 10 batches');
    expect(checks.journals?.fix).toContain('svc inventory push /data/stock.csv --resume');
  });
});

describe('the config dir', () => {
  it('is made readable only by its owner by whichever command makes it first', async () => {
    const emu = await start();
    const { statSync } = await import('node:fs');
    for (const args of [['orders', 'list', '--limit', '1'], ['doctor']]) {
      const dir = join(freshConfigDir(), 'svc');
      const result = await runSvc(args, { env: { ...envFor(emu), SVC_CONFIG_DIR: dir, ...NO_PROXY_ENV } });
      expect(result.code, result.stderr).toBe(0);
      expect((statSync(dir).mode & 0o777).toString(8), args.join(' ')).toBe('700');
    }
  });
});
