import { describe, expect, it } from 'vitest';
import { checkSameExport, type ExportMark } from '../../../src/config/marks.js';
import { sameStore, storeIdentity, storeKey } from '../../../src/config/store-identity.js';
import { UsageError } from '../../../src/errors.js';

const store = (apiKey: string, baseUrl = 'https://api.example.com/', profileName?: string) =>
  storeIdentity({ apiKey, baseUrl, profileName, apiKeySource: profileName ? 'profile' : 'env' });

const mark = (extra: Partial<ExportMark> = {}): ExportMark => ({
  createdAfter: '2026-11-01T00:00:00.000Z',
  boundaryIds: [],
  filters: {},
  exported: 0,
  savedAt: '2026-11-01T00:00:00.000Z',
  ...extra,
});

const run = (s = store('svc_live_a')) => ({ filters: {}, store: s, markFile: '/cfg/marks/nightly.json' });

describe('storeIdentity', () => {
  it('hashes key and address, never holds the key, and names the profile only when the key came from it', () => {
    const identity = store('svc_live_secret', 'https://API.example.com/', 'shop');
    expect(JSON.stringify(identity)).not.toContain('secret');
    expect(identity).toMatchObject({ profile: 'shop', baseUrl: 'https://api.example.com' });
    expect(store('svc_live_a').keyHash).not.toBe(store('svc_live_b').keyHash);
    expect(store('svc_live_a', 'https://other.example.com').keyHash).not.toBe(store('svc_live_a').keyHash);
  });
});

describe('checkSameExport', () => {
  it('passes for the same store and filters', () => {
    expect(checkSameExport('nightly', mark({ store: store('svc_live_a') }), run())).toBe(false);
  });

  it('compares the base URL, trailing slashes aside', () => {
    const saved = mark({ baseUrl: 'https://api.example.com', store: store('svc_live_a') });
    expect(() =>
      checkSameExport('nightly', saved, run(store('svc_live_a', 'https://api.example.com//'))),
    ).not.toThrow();
    expect(() =>
      checkSameExport('nightly', saved, run(store('svc_live_a', 'https://eu.example.com'))),
    ).toThrow(/belongs to the service at https:\/\/api\.example\.com, not https:\/\/eu\.example\.com/);
  });

  it('refuses another key or another profile, naming the file to delete to start over', () => {
    const saved = mark({ store: store('svc_live_a', undefined, 'shop-a') });
    expect(() => checkSameExport('nightly', saved, run(store('svc_live_a', undefined, 'shop-b')))).toThrow(
      /belongs to profile "shop-a" at https:\/\/api\.example\.com, not to this run's profile "shop-b"/,
    );
    expect(() =>
      checkSameExport('nightly', mark({ store: store('svc_live_a') }), run(store('svc_live_b'))),
    ).toThrow(/another key .*delete \/cfg\/marks\/nightly\.json and start from --created-after 2026-11-01/);
  });

  it('says when a mark from before stores were named is adopted', () => {
    expect(checkSameExport('nightly', mark(), run())).toBe(true);
    expect(() => checkSameExport('nightly', mark({ filters: { status: 'shipped' } }), run())).toThrow(
      UsageError,
    );
  });
});

describe('storeKey (push journals use the same rule as marks)', () => {
  it('is one name per store: same for an address written differently, different for key, address or profile', () => {
    const key = storeKey(store('svc_live_secret', 'https://api.example.com'));
    expect(key).toMatch(/^[0-9a-f]{16}$/);
    expect(storeKey(store('svc_live_secret', 'https://API.example.com//'))).toBe(key);
    for (const other of [
      store('svc_live_other', 'https://api.example.com'),
      store('svc_live_secret', 'https://api.example.com/v2'),
      store('svc_live_secret', 'https://api.example.com', 'shop'),
    ]) {
      expect(sameStore(other, store('svc_live_secret', 'https://api.example.com'))).toBe(false);
      expect(storeKey(other)).not.toBe(key);
    }
  });
});
