/**
 * No plaintext path for a key: loopback never goes through a proxy, plain http carries a key
 * (live or test) only to loopback addresses, and a failing proxy is named. The "remote" host is
 * `store.invalid` (it cannot resolve) behind a capture proxy on 127.0.0.1.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { type CaptureProxy, captureProxy } from '../helpers/capture-proxy.js';
import { emulator } from '../helpers/emulator.js';
import { runSvc } from '../helpers/svc.js';

let emu: RunningEmulator;
let proxy: CaptureProxy;
beforeAll(async () => {
  emu = await emulator();
});
afterAll(() => emu.close());
afterEach(() => proxy?.close());

/** The environment with both proxy variables pointing at the capture proxy and no NO_PROXY. */
const proxied = (extra: Record<string, string>) => ({
  HTTP_PROXY: proxy.url,
  HTTPS_PROXY: proxy.url,
  http_proxy: undefined,
  https_proxy: undefined,
  NO_PROXY: undefined,
  no_proxy: undefined,
  ...extra,
});

describe('plain http and proxies', () => {
  it('a loopback base URL never goes through HTTP_PROXY: the key stays on this machine', async () => {
    proxy = await captureProxy();
    const before = emu.requests().length;
    const result = await runSvc(['orders', 'list', '--limit', '1', '--json'], {
      env: proxied({ SVC_BASE_URL: emu.url, SVC_API_KEY: emu.keys.live }),
    });
    expect(result.code, result.stderr).toBe(0);
    expect(proxy.captured).toEqual([]);
    expect(emu.requests().length).toBeGreaterThan(before);
  });

  it('a host that only starts with "127." is not loopback: a live key is refused over plain http', async () => {
    proxy = await captureProxy();
    const result = await runSvc(['orders', 'list'], {
      env: proxied({ SVC_BASE_URL: 'http://127.store.invalid:8080', SVC_API_KEY: emu.keys.live }),
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/plain http/);
    expect(result.stderr).toContain('127.store.invalid');
    expect(proxy.captured).toEqual([]);
  });

  it('a test key gets the same rule: never over plain http to another host', async () => {
    proxy = await captureProxy();
    const result = await runSvc(['orders', 'list'], {
      env: proxied({ SVC_BASE_URL: 'http://store.invalid', SVC_API_KEY: emu.keys.test }),
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/plain http/);
    expect(proxy.captured).toEqual([]);
  });

  it('login refuses a plain-http remote address before anything is sent', async () => {
    proxy = await captureProxy();
    const result = await runSvc(
      ['auth', 'login', '--with-key-stdin', '--base-url', 'http://store.invalid:8080'],
      { stdin: emu.keys.test, env: proxied({}) },
    );
    expect(result.code).toBe(2);
    expect(proxy.captured).toEqual([]);
  });

  it('a proxy that refuses the tunnel is named, with what to check', async () => {
    proxy = await captureProxy(502);
    const result = await runSvc(['orders', 'list', '--max-retries', '0'], {
      env: proxied({ SVC_BASE_URL: 'https://store.invalid', SVC_API_KEY: emu.keys.live }),
    });
    expect(result.code).toBe(1);
    expect(proxy.captured.map((c) => `${c.method} ${c.target}`)).toContain('CONNECT store.invalid:443');
    expect(result.stderr).toContain(`proxy ${proxy.url}`);
    expect(result.stderr).toContain('HTTPS_PROXY');
    expect(result.stderr).toMatch(/502/);
    expect(result.stderr).not.toMatch(/HTTP Tunneling/);
  });

  it('a proxy that cannot be reached is named too', async () => {
    proxy = await captureProxy();
    const deadUrl = proxy.url;
    await proxy.close();
    const result = await runSvc(['orders', 'list', '--max-retries', '0'], {
      env: {
        HTTPS_PROXY: deadUrl,
        https_proxy: undefined,
        NO_PROXY: undefined,
        no_proxy: undefined,
        SVC_BASE_URL: 'https://store.invalid',
        SVC_API_KEY: emu.keys.live,
      },
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`proxy ${deadUrl}`);
    expect(result.stderr).toContain('HTTPS_PROXY');
    // One piece of advice, the proxy's: not also the one for a wrong service address.
    expect(result.stderr).not.toMatch(/check the service address/);
  });
});
