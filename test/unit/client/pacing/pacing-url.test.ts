import { describe, expect, it } from 'vitest';
import { maskUrlPassword, pacingUrlOf, parsePacingUrl } from '../../../../src/client/pacing/pacing-url.js';
import { UsageError } from '../../../../src/errors.js';

describe('the pacing URL', () => {
  it('takes redis:// and rediss:// with a user, a password and a database; shows the password masked', () => {
    const url = parsePacingUrl('redis://ci:hunter2@cache.internal:6379/3', { env: true });
    expect(url).toMatchObject({
      url: 'redis://ci:hunter2@cache.internal:6379/3',
      shown: 'redis://ci:***@cache.internal:6379/3',
      setting: 'SVC_PACING_URL',
      secrets: ['hunter2'],
    });
    const tls = parsePacingUrl('rediss://:p%40ss@cache:6380', { profile: 'ci' });
    expect(tls).toMatchObject({ shown: 'rediss://:***@cache:6380', setting: 'pacing_url of profile "ci"' });
    expect(tls?.secrets).toEqual(['p%40ss', 'p@ss']);
    expect(parsePacingUrl('redis://127.0.0.1:6379', { env: true })?.secrets).toEqual([]);
  });

  it('is off when empty, and refuses what svc cannot use without repeating the password (exit 2)', () => {
    expect(parsePacingUrl(undefined, { env: true })).toBeUndefined();
    expect(parsePacingUrl('  ', { env: true })).toBeUndefined();
    for (const [text, why] of [
      ['http://u:hunter2@host:6379', 'http:// is not Redis'],
      ['redis://u:hunter2@host:6379/x', '"/x" is not a database number'],
      ['redis://u:hunter2@host:6379?db=1', 'no query'],
      ['not a url', 'not a URL'],
    ] as const) {
      let error: unknown;
      try {
        parsePacingUrl(text, { env: true });
      } catch (caught) {
        error = caught;
      }
      expect(error, text).toBeInstanceOf(UsageError);
      expect((error as Error).message).toContain('SVC_PACING_URL must be redis://');
      expect((error as Error).message).toContain(why);
      expect((error as Error).message).not.toContain('hunter2');
    }
  });

  it('comes from SVC_PACING_URL, else the profile', () => {
    expect(pacingUrlOf({ pacingUrl: 'redis://a:1', pacingUrlSource: 'env' })?.setting).toBe('SVC_PACING_URL');
    expect(
      pacingUrlOf({ pacingUrl: 'redis://a:1', pacingUrlSource: 'profile', profileName: 'ci' })?.setting,
    ).toBe('pacing_url of profile "ci"');
    expect(pacingUrlOf({})).toBeUndefined();
  });

  it('masks the password of any URL in a text, up to the last @ of its authority', () => {
    expect(maskUrlPassword('see redis://u:p@ss@host:1/0 and http://x:y@z')).toBe(
      'see redis://u:***@host:1/0 and http://x:***@z',
    );
    expect(maskUrlPassword('redis://host:6379')).toBe('redis://host:6379');
  });
});
