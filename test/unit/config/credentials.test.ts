import { describe, expect, it } from 'vitest';
import { type CredentialInputs, type Profile, resolveCredentials } from '../../../src/config/credentials.js';
import { UsageError } from '../../../src/errors.js';

const profiles: Record<string, Profile> = {
  work: { api_key: 'svc_live_workworkwork1111', base_url: 'https://work.example.com' },
  test: { api_key: 'svc_test_testtesttest2222', base_url: 'https://test.example.com' },
  bare: {},
};

function resolve(overrides: Partial<CredentialInputs> = {}) {
  return resolveCredentials({ flags: {}, env: {}, currentProfile: 'work', profiles, ...overrides });
}

describe('resolveCredentials', () => {
  it('uses the current profile when nothing else is given', () => {
    expect(resolve()).toEqual({
      profileName: 'work',
      profileSource: 'profile',
      apiKey: 'svc_live_workworkwork1111',
      apiKeySource: 'profile',
      apiKeyStorage: 'file',
      baseUrl: 'https://work.example.com',
      baseUrlSource: 'profile',
    });
  });

  it('reports none when there is no profile and no environment', () => {
    expect(resolve({ currentProfile: undefined })).toEqual({
      profileName: undefined,
      profileSource: 'none',
      apiKey: undefined,
      apiKeySource: 'none',
      baseUrl: undefined,
      baseUrlSource: 'none',
    });
  });

  it("lets SVC_API_KEY and SVC_BASE_URL override the current profile's", () => {
    const creds = resolve({
      env: { SVC_API_KEY: 'svc_test_fromenv9999', SVC_BASE_URL: 'http://localhost:4010' },
    });
    expect(creds.apiKey).toBe('svc_test_fromenv9999');
    expect(creds.apiKeySource).toBe('env');
    expect(creds.baseUrl).toBe('http://localhost:4010');
    expect(creds.baseUrlSource).toBe('env');
    expect(creds.profileName).toBe('work');
  });

  it('lets --base-url beat SVC_BASE_URL and the profile', () => {
    const creds = resolve({
      flags: { baseUrl: 'https://flag.example.com' },
      env: { SVC_BASE_URL: 'http://localhost:4010' },
    });
    expect(creds.baseUrl).toBe('https://flag.example.com');
    expect(creds.baseUrlSource).toBe('flag');
  });

  it('lets --base-url beat an explicit --profile too', () => {
    const creds = resolve({ flags: { profile: 'test', baseUrl: 'https://flag.example.com' } });
    expect(creds.baseUrl).toBe('https://flag.example.com');
    expect(creds.baseUrlSource).toBe('flag');
    expect(creds.apiKey).toBe('svc_test_testtesttest2222');
  });

  it('lets an explicit --profile win over SVC_API_KEY and SVC_BASE_URL', () => {
    const creds = resolve({
      flags: { profile: 'test' },
      env: {
        SVC_API_KEY: 'svc_live_fromenv9999',
        SVC_BASE_URL: 'http://localhost:4010',
        SVC_PROFILE: 'work',
      },
    });
    expect(creds).toEqual({
      profileName: 'test',
      profileSource: 'flag',
      apiKey: 'svc_test_testtesttest2222',
      apiKeySource: 'profile',
      apiKeyStorage: 'file',
      baseUrl: 'https://test.example.com',
      baseUrlSource: 'profile',
    });
  });

  it('does not fall back to SVC_API_KEY when the named profile has no key', () => {
    const creds = resolve({ flags: { profile: 'bare' }, env: { SVC_API_KEY: 'svc_live_fromenv9999' } });
    expect(creds.apiKey).toBeUndefined();
    expect(creds.apiKeySource).toBe('none');
    expect(creds.profileName).toBe('bare');
  });

  it('falls back to SVC_BASE_URL when the named profile has no base URL', () => {
    const creds = resolve({ flags: { profile: 'bare' }, env: { SVC_BASE_URL: 'http://localhost:4010' } });
    expect(creds.baseUrl).toBe('http://localhost:4010');
    expect(creds.baseUrlSource).toBe('env');
  });

  it('selects a profile with SVC_PROFILE', () => {
    const creds = resolve({ env: { SVC_PROFILE: 'test' } });
    expect(creds.profileName).toBe('test');
    expect(creds.profileSource).toBe('env');
    expect(creds.apiKey).toBe('svc_test_testtesttest2222');
    expect(creds.apiKeySource).toBe('profile');
    expect(creds.baseUrl).toBe('https://test.example.com');
  });

  it('still lets SVC_API_KEY beat the profile SVC_PROFILE selects', () => {
    const creds = resolve({ env: { SVC_PROFILE: 'test', SVC_API_KEY: 'svc_live_fromenv9999' } });
    expect(creds.profileName).toBe('test');
    expect(creds.apiKey).toBe('svc_live_fromenv9999');
    expect(creds.apiKeySource).toBe('env');
    expect(creds.baseUrl).toBe('https://test.example.com');
    expect(creds.baseUrlSource).toBe('profile');
  });

  it('lets --profile beat SVC_PROFILE', () => {
    const creds = resolve({ flags: { profile: 'work' }, env: { SVC_PROFILE: 'test' } });
    expect(creds.profileName).toBe('work');
    expect(creds.profileSource).toBe('flag');
    expect(creds.apiKey).toBe('svc_live_workworkwork1111');
  });

  it('ignores empty environment variables', () => {
    const creds = resolve({ env: { SVC_API_KEY: '', SVC_BASE_URL: '', SVC_PROFILE: '' } });
    expect(creds.profileSource).toBe('profile');
    expect(creds.apiKeySource).toBe('profile');
    expect(creds.baseUrlSource).toBe('profile');
  });

  it('refuses an unknown profile named by --profile, listing the known ones', () => {
    expect(() => resolve({ flags: { profile: 'nope' } })).toThrow(UsageError);
    expect(() => resolve({ flags: { profile: 'nope' } })).toThrow(
      /unknown profile "nope"; known: work, test, bare/,
    );
    expect(() => resolve({ flags: { profile: 'nope' } })).toThrow(/svc auth login --profile nope/);
  });

  it('says none are saved when refusing a profile with none saved', () => {
    expect(() => resolve({ flags: { profile: 'nope' }, profiles: {} })).toThrow(/none saved yet/);
  });

  it('refuses an unknown profile named by SVC_PROFILE', () => {
    expect(() => resolve({ env: { SVC_PROFILE: 'nope' } })).toThrow(UsageError);
  });

  it('tolerates a current profile that no longer exists, and still reads the environment', () => {
    const creds = resolve({ currentProfile: 'gone', env: { SVC_API_KEY: 'svc_test_fromenv9999' } });
    expect(creds.profileName).toBeUndefined();
    expect(creds.apiKey).toBe('svc_test_fromenv9999');
    expect(creds.apiKeySource).toBe('env');
    expect(creds.baseUrlSource).toBe('none');
  });
});

describe('names and keys kept apart', () => {
  const key = 'svc_live_pastedwhereanamegoes1234';

  it('refuses a profile name that looks like a key, from --profile or SVC_PROFILE', () => {
    expect(() => resolve({ flags: { profile: key } })).toThrow(/--profile looks like an API key/);
    expect(() => resolve({ env: { SVC_PROFILE: key } })).toThrow(/SVC_PROFILE looks like an API key/);
  });

  it('still uses a current profile an older svc saved under such a name (so it can be removed)', () => {
    expect(resolve({ currentProfile: key, profiles: { [key]: profiles.work } }).profileName).toBe(key);
  });

  it('trims SVC_API_KEY: a secrets file ends with a newline', () => {
    expect(resolve({ env: { SVC_API_KEY: ` ${key}\n` } }).apiKey).toBe(key);
  });
});
