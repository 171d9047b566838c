import { describe, expect, it } from 'vitest';
import {
  isLoopbackAddress,
  isLoopbackHost,
  refuseKeyInClear,
  routeFor,
  withoutCredentials,
} from '../../../src/client/proxy-route.js';

describe('isLoopbackAddress', () => {
  it.each([
    '127.0.0.1',
    '127.1.2.3',
    '127.255.255.254',
    '::1',
    '[::1]',
    '0:0:0:0:0:0:0:1',
    '::ffff:127.0.0.1',
    '[::ffff:7f00:1]',
  ])('%s is loopback', (address) => {
    expect(isLoopbackAddress(address)).toBe(true);
  });

  it.each([
    '127.attacker.example',
    '127.0.0.1.store.invalid',
    'localhost',
    '128.0.0.1',
    '10.0.0.1',
    '::2',
    '::ffff:10.0.0.1',
    '',
  ])('%s is not an address on this machine', (address) => {
    expect(isLoopbackAddress(address)).toBe(false);
  });
});

describe('isLoopbackHost', () => {
  it('takes localhost only when every address it resolves to is loopback', async () => {
    expect(await isLoopbackHost('localhost', async () => ['127.0.0.1', '::1'])).toBe(true);
    expect(await isLoopbackHost('localhost', async () => ['127.0.0.1', '192.0.2.2'])).toBe(false);
    expect(await isLoopbackHost('localhost', async () => [])).toBe(false);
    expect(
      await isLoopbackHost('localhost', async () => {
        throw new Error('ENOTFOUND');
      }),
    ).toBe(false);
  });

  it('never asks DNS about other names: they are not loopback, whatever they resolve to', async () => {
    let asked = 0;
    const lookup = async () => {
      asked += 1;
      return ['127.0.0.1'];
    };
    expect(await isLoopbackHost('127.store.invalid', lookup)).toBe(false);
    expect(await isLoopbackHost('store.invalid', lookup)).toBe(false);
    expect(asked).toBe(0);
  });
});

describe('refuseKeyInClear', () => {
  const lookup = async () => ['127.0.0.1'];

  it('lets https go anywhere and plain http only to loopback', async () => {
    await expect(refuseKeyInClear('https://store.invalid', lookup)).resolves.toBeUndefined();
    await expect(refuseKeyInClear('http://127.0.0.1:4010', lookup)).resolves.toBeUndefined();
    await expect(refuseKeyInClear('http://[::1]:4010', lookup)).resolves.toBeUndefined();
    await expect(refuseKeyInClear('http://localhost:4010', lookup)).resolves.toBeUndefined();
    // The URL parser reads a bare number as an IPv4 address: 2130706433 is 127.0.0.1.
    await expect(refuseKeyInClear('http://2130706433:4010', lookup)).resolves.toBeUndefined();
  });

  it('refuses plain http elsewhere with exit-2 words naming the host', async () => {
    await expect(refuseKeyInClear('http://127.attacker.example:8080', lookup)).rejects.toThrow(
      /plain http to 127\.attacker\.example:8080/,
    );
    await expect(refuseKeyInClear('http://store.invalid', lookup)).rejects.toMatchObject({
      name: 'UsageError',
    });
  });
});

describe('routeFor', () => {
  const url = (text: string) => new URL(text);

  it('goes direct to loopback even with every proxy variable set', () => {
    const env = { HTTP_PROXY: 'http://proxy:3128', HTTPS_PROXY: 'http://proxy:3128' };
    expect(routeFor(url('http://127.0.0.1:4010'), env)).toEqual({ via: 'direct', reason: 'loopback' });
    expect(routeFor(url('https://localhost'), env)).toEqual({ via: 'direct', reason: 'loopback' });
    expect(routeFor(url('http://[::1]:80'), env)).toEqual({ via: 'direct', reason: 'loopback' });
  });

  it('reads the variables as undici does: lower case first, https falling back to the http proxy', () => {
    expect(routeFor(url('https://store.invalid'), { HTTP_PROXY: 'http://a:1' })).toMatchObject({
      via: 'proxy',
      proxy: { variable: 'HTTP_PROXY', url: 'http://a:1' },
    });
    expect(
      routeFor(url('https://store.invalid'), { HTTPS_PROXY: 'http://b:2', https_proxy: 'http://c:3' }),
    ).toMatchObject({ proxy: { variable: 'https_proxy' } });
    expect(routeFor(url('http://store.invalid'), { HTTPS_PROXY: 'http://b:2' })).toEqual({
      via: 'direct',
      reason: 'no proxy set',
    });
    expect(routeFor(url('https://store.invalid'), { HTTPS_PROXY: '' })).toMatchObject({ via: 'direct' });
  });

  it('honours NO_PROXY: exact hosts, domain suffixes, ports and *', () => {
    const proxy = { HTTPS_PROXY: 'http://p:1' };
    const direct = { via: 'direct', reason: 'no_proxy' };
    expect(routeFor(url('https://api.store.invalid'), { ...proxy, NO_PROXY: '.store.invalid' })).toEqual(
      direct,
    );
    expect(routeFor(url('https://store.invalid'), { ...proxy, NO_PROXY: 'store.invalid' })).toEqual(direct);
    expect(routeFor(url('https://store.invalid'), { ...proxy, NO_PROXY: 'store.invalid:443' })).toEqual(
      direct,
    );
    expect(
      routeFor(url('https://store.invalid'), { ...proxy, NO_PROXY: 'store.invalid:8443' }),
    ).toMatchObject({
      via: 'proxy',
    });
    expect(routeFor(url('https://store.invalid'), { ...proxy, no_proxy: '*' })).toEqual(direct);
    expect(routeFor(url('https://notstore.invalid'), { ...proxy, NO_PROXY: 'store.invalid' })).toMatchObject({
      via: 'proxy',
    });
  });

  it('never shows the proxy password', () => {
    const route = routeFor(url('https://store.invalid'), { HTTPS_PROXY: 'http://user:s3cret@p:3128' });
    expect(route).toMatchObject({ proxy: { url: 'http://p:3128', uri: 'http://user:s3cret@p:3128' } });
    expect(withoutCredentials('not a url')).not.toContain('not a url');
  });
});
