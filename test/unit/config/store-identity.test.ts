/** One spelling of a base URL keys pacing, the quota count, marks and journals. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sharedBucketId } from '../../../src/client/pacing/record-file.js';
import { normalBaseUrl } from '../../../src/config/store-identity.js';

/** Ways of writing one service's address. */
const spelling = fc.record({
  scheme: fc.constantFrom('https', 'HTTPS', 'Https'),
  host: fc.constantFrom('api.example.com', 'API.Example.COM', 'Api.example.com'),
  port: fc.constantFrom('', ':443'),
  user: fc.constantFrom('', 'me:secret@'),
  path: fc.constantFrom('', '/', '//', '/rest/v1', '/rest/v1/', '/REST/V1'),
  query: fc.constantFrom('', '?x=1', '#top'),
});

describe('normalBaseUrl', () => {
  it('two spellings of one service give one string', () => {
    fc.assert(
      fc.property(spelling, spelling, (a, b) => {
        const write = (s: typeof a) => `${s.scheme}://${s.user}${s.host}${s.port}${s.path}${s.query}`;
        expect(normalBaseUrl(write(a))).toBe('https://api.example.com');
        expect(normalBaseUrl(write(a))).toBe(normalBaseUrl(write(b)));
      }),
    );
  });

  it('is idempotent', () => {
    fc.assert(
      fc.property(fc.webUrl(), (url) => {
        expect(normalBaseUrl(normalBaseUrl(url))).toBe(normalBaseUrl(url));
      }),
    );
  });

  it('names localhost as 127.0.0.1; keeps other ports, paths, hosts and schemes apart', () => {
    expect(normalBaseUrl('http://localhost:8080/')).toBe('http://127.0.0.1:8080');
    expect(normalBaseUrl('http://LOCALHOST:8080/rest/v1')).toBe('http://127.0.0.1:8080');
    expect(normalBaseUrl('http://127.0.0.1:80')).toBe('http://127.0.0.1');
    expect(normalBaseUrl('http://127.0.0.1:8081')).not.toBe(normalBaseUrl('http://127.0.0.1:8080'));
    expect(normalBaseUrl('http://[::1]:8080')).toBe('http://[::1]:8080');
    expect(normalBaseUrl('https://a.example.com/store')).toBe('https://a.example.com/store');
    expect(normalBaseUrl('http://a.example.com')).not.toBe(normalBaseUrl('https://a.example.com'));
  });

  it('keys one pacing bucket for every spelling', () => {
    const key = 'svc_live_spelling0123456789';
    const id = sharedBucketId(key, 'http://127.0.0.1:4010');
    for (const spelled of [
      'http://localhost:4010',
      'HTTP://LOCALHOST:4010/',
      'http://127.0.0.1:4010/rest/v1/',
    ])
      expect(sharedBucketId(key, spelled)).toBe(id);
  });
});
