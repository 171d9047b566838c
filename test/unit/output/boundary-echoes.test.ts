/**
 * The boundary masks the key in use however a server echoes it (any letter case, blanks
 * between its characters, base64 alone or inside a longer encoded text), and the user info
 * of any URL: properties over encodings and URLs.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Boundary, maskUserInfo } from '../../../src/output/boundary.js';
import { memoryIO } from '../../helpers/memory-io.js';

const KEY = 'svc_live_EchoedKey_0123456789abcdefXYZ';

/** The ways a server may echo the key, each with a text around it. */
const encodings: Record<string, (key: string, before: string) => string> = {
  upper: (key) => key.toUpperCase(),
  lower: (key) => key.toLowerCase(),
  spaced: (key) => [...key].join(' '),
  grouped: (key) => key.replace(/(.{4})/g, '$1 '),
  base64: (key, before) => Buffer.from(`${before}${key}`).toString('base64'),
  base64url: (key, before) => Buffer.from(`${before}${key}`).toString('base64url'),
  basic: (key, before) => `Basic ${Buffer.from(`${before}:${key}`).toString('base64')}`,
};

/** Whether `shown` still gives the key away: as text in any case or spacing, or in base64 at any alignment. */
function revealsKey(shown: string): boolean {
  const tail = KEY.slice(-16);
  if (shown.replace(/\s+/g, '').toLowerCase().includes(tail.toLowerCase())) return true;
  for (const run of shown.match(/[A-Za-z0-9+/_-]{16,}/g) ?? []) {
    const plain = run.replace(/-/g, '+').replace(/_/g, '/');
    for (let skip = 0; skip < 4; skip += 1) {
      if (Buffer.from(plain.slice(skip), 'base64').toString('latin1').includes(tail)) return true;
    }
  }
  return false;
}

function writtenThrough(text: string, asBytes: boolean): string {
  const io = memoryIO();
  const boundary = new Boundary(io);
  boundary.protect(KEY);
  boundary.io.stdout.write(asBytes ? Buffer.from(text) : text);
  return io.out();
}

describe('the boundary and echoed keys', () => {
  it('never lets the key through, in any encoding, in text or bytes', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...Object.keys(encodings)),
        fc.string({ maxLength: 12 }),
        fc.string({ maxLength: 20 }),
        fc.string({ maxLength: 20 }),
        fc.boolean(),
        (name, before, head, tail, asBytes) => {
          const echoed = encodings[name](KEY, before);
          expect(revealsKey(echoed)).toBe(true);
          const shown = writtenThrough(`${head}${echoed}${tail}`, asBytes);
          expect(revealsKey(shown), shown).toBe(false);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('shows the key as text masked to its prefix and last four, and an encoded one as ***', () => {
    expect(writtenThrough(`key ${KEY.toUpperCase()} echoed`, false)).toBe(
      'key svc_live_…XYZ echoed'.replace('…XYZ', '…fXYZ'),
    );
    expect(writtenThrough(Buffer.from(KEY).toString('base64'), false)).toMatch(/^.{0,3}\*\*\*.{0,4}$/);
  });
});

describe('user info in URLs', () => {
  it('masks the password of any URL, leaving the rest as written', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('http', 'https', 'redis', 'rediss', 'ftp'),
        fc.stringMatching(/^[A-Za-z0-9._~-]{0,12}$/),
        fc.stringMatching(/^[A-Za-z0-9._~!$&'()*+,;=%@-]{1,16}$/),
        fc.constantFrom('127.0.0.1:8080', 'api.example.com', '[::1]:9'),
        fc.constantFrom('', '/rest/v1', '/path?q=1'),
        (scheme, user, password, host, rest) => {
          const url = `${scheme}://${user}:${password}@${host}${rest}`;
          const shown = maskUserInfo(`see ${url} now`);
          expect(shown).toBe(`see ${scheme}://${user}:***@${host}${rest} now`);
        },
      ),
    );
  });

  it('masks a user alone (a token), and leaves URLs without user info and e-mail addresses alone', () => {
    expect(maskUserInfo('https://ghp_token@github.com/x')).toBe('https://***@github.com/x');
    expect(maskUserInfo('http://127.0.0.1:8080/rest/v1 me@example.com')).toBe(
      'http://127.0.0.1:8080/rest/v1 me@example.com',
    );
  });
});
