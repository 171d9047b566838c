import { describe, expect, it } from 'vitest';
import {
  clockCheck,
  configCheck,
  nodeCheck,
  pacingCheck,
  proxyCheck,
  rateCheck,
  tlsCheck,
} from '../../../../src/core/doctor/checks.js';

describe('doctor checks', () => {
  it('clock: ok within 30 s, warn beyond, fail past the 300 s webhook signatures allow', () => {
    expect(clockCheck(-800).status).toBe('ok');
    expect(clockCheck(29_000).status).toBe('ok');
    expect(clockCheck(45_000)).toMatchObject({
      status: 'warn',
      detail: expect.stringMatching(/behind .* by 45 s/),
    });
    expect(clockCheck(-120_000).detail).toMatch(/ahead of the service by 120 s/);
    expect(clockCheck(301_000)).toMatchObject({ status: 'fail', fix: expect.stringMatching(/NTP/) });
    expect(clockCheck(undefined).status).toBe('skip');
  });

  it('proxy: ok with none set; otherwise says how the base URL travels, never with a password', () => {
    expect(proxyCheck({}, 'https://store.invalid').status).toBe('ok');
    const through = proxyCheck(
      { HTTPS_PROXY: 'http://me:s3cret@proxy.invalid:3128' },
      'https://store.invalid',
    );
    expect(through.status).toBe('warn');
    expect(JSON.stringify(through)).not.toContain('s3cret');
    expect(through.detail).toContain('goes through the proxy http://proxy.invalid:3128 (from HTTPS_PROXY)');
    expect(through.fix).toContain('NO_PROXY');
    const exempt = proxyCheck({ HTTPS_PROXY: 'http://p:1', NO_PROXY: '.invalid' }, 'https://store.invalid');
    expect(exempt.detail).toContain('NO_PROXY names it');
    expect(proxyCheck({ ALL_PROXY: 'socks5://p:1' }, 'https://store.invalid').detail).toContain(
      'ALL_PROXY is not read by svc',
    );
  });

  it('tls: plain http only to loopback, certificate checks on, the custom CA readable', () => {
    expect(tlsCheck({}, 'http://127.0.0.1:4010', {}).status).toBe('ok');
    expect(tlsCheck({}, 'http://store.invalid', {}).status).toBe('fail');
    expect(tlsCheck({ NODE_TLS_REJECT_UNAUTHORIZED: '0' }, 'https://store.invalid', {}).status).toBe('fail');
    expect(
      tlsCheck({ NODE_EXTRA_CA_CERTS: '/nope.pem' }, 'https://store.invalid', {
        caFileProblem: 'cannot be read',
      }),
    ).toMatchObject({ status: 'fail' });
    expect(tlsCheck({}, 'https://store.invalid', { tlsError: 'SELF_SIGNED_CERT_IN_CHAIN' }).fix).toContain(
      'NODE_EXTRA_CA_CERTS',
    );
  });

  it('config: a config file others can read is a warning with what to do about the key', () => {
    const loose = configCheck({
      dir: '/c',
      dirExists: true,
      dirMode: 0o700,
      fileMode: 0o644,
      looseFiles: [],
    });
    expect(loose).toMatchObject({ status: 'warn', detail: expect.stringContaining('0644') });
    expect(
      configCheck({ dir: '/c', dirExists: true, dirMode: 0o700, fileMode: 0o600, looseFiles: [] }).status,
    ).toBe('ok');
    expect(configCheck({ dir: '/c', dirExists: false, looseFiles: [] }).status).toBe('ok');
  });

  it('rate limit and node', () => {
    expect(rateCheck({ burst: 40, perSecond: 2, tier: 'trial' }).detail).toBe(
      'burst 40, 2 requests/s (trial tier)',
    );
    expect(rateCheck(undefined).status).toBe('warn');
    expect(nodeCheck('20.18.1').status).toBe('ok');
    expect(nodeCheck('22.0.0').status).toBe('ok');
    expect(nodeCheck('20.18.0').status).toBe('fail');
    expect(nodeCheck('18.20.4').status).toBe('fail');
  });

  it('shared pacing: off, nobody else, or the other processes by pid', () => {
    expect(pacingCheck('off')).toMatchObject({ status: 'ok', detail: expect.stringMatching(/^off/) });
    expect(pacingCheck('no key to share').status).toBe('skip');
    expect(pacingCheck([]).detail).toBe('no other svc process is using this key now');
    expect(pacingCheck([{ pid: 42, inFlight: 2, queued: 1 }]).detail).toBe(
      "1 other svc process shares this key's rate limit: pid 42 (2 in flight, 1 waiting)",
    );
  });
});
