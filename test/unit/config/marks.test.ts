import { describe, expect, it } from 'vitest';
import { checkSameExport, type ExportMark, type RunStore, storeToSave } from '../../../src/config/marks.js';
import {
  markStoreOf,
  sameMarkStore,
  sameStore,
  storeIdentity,
  storeKey,
} from '../../../src/config/store-identity.js';
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

/** A run reaching the store with `channelAccounts`; null: a key that may not list them. */
const run = (channelAccounts: string[] | null = ['chac_1', 'chac_2'], extra: Partial<RunStore> = {}) => ({
  filters: {},
  baseUrl: 'https://api.example.com',
  channelAccounts: channelAccounts ?? undefined,
  keyHash: store('svc_live_a').keyHash,
  markFile: '/cfg/marks/nightly.json',
  ...extra,
});
const savedBy = (channelAccounts: string[]) =>
  mark({ store: { baseUrl: 'https://api.example.com', channelAccounts } });

describe('storeIdentity', () => {
  it('hashes key and address, never holds the key, and names the profile only when the key came from it', () => {
    const identity = store('svc_live_secret', 'https://API.example.com/', 'shop');
    expect(JSON.stringify(identity)).not.toContain('secret');
    expect(identity).toMatchObject({ profile: 'shop', baseUrl: 'https://api.example.com' });
    expect(store('svc_live_a').keyHash).not.toBe(store('svc_live_b').keyHash);
    expect(store('svc_live_a', 'https://other.example.com').keyHash).not.toBe(store('svc_live_a').keyHash);
  });
});

describe('sameMarkStore', () => {
  const at = (channelAccounts: string[], baseUrl = 'https://api.example.com') =>
    markStoreOf(baseUrl, channelAccounts);
  it('is the same store while one channel account is shared, whatever else was connected or dropped', () => {
    expect(sameMarkStore(at(['chac_1', 'chac_2']), at(['chac_2', 'chac_3']))).toBe(true);
    expect(sameMarkStore(at([]), at([]))).toBe(true);
    expect(sameMarkStore(at(['chac_1']), at(['chac_9']))).toBe(false);
    expect(sameMarkStore(at(['chac_1']), at([]))).toBe(false);
    expect(sameMarkStore(at(['chac_1']), at(['chac_1'], 'https://eu.example.com'))).toBe(false);
  });
});

describe('checkSameExport', () => {
  it('passes for the same store and filters, whatever key or profile reads it', () => {
    const other = { keyHash: store('svc_live_rotated').keyHash };
    expect(checkSameExport('nightly', savedBy(['chac_1', 'chac_2']), run(['chac_2'], other))).toBeUndefined();
  });

  it('compares the base URL, trailing slashes aside', () => {
    const saved = mark({
      baseUrl: 'https://api.example.com',
      store: { baseUrl: 'https://api.example.com', channelAccounts: ['chac_1'] },
    });
    expect(() => checkSameExport('nightly', saved, run(['chac_1']))).not.toThrow();
    expect(() =>
      checkSameExport('nightly', saved, run(['chac_1'], { baseUrl: 'https://eu.example.com' })),
    ).toThrow(/belongs to the service at https:\/\/api\.example\.com, not https:\/\/eu\.example\.com/);
  });

  it('refuses another store at the same address, naming both in a sentence that reads', () => {
    expect(() => checkSameExport('nightly', savedBy(['chac_1']), run(['chac_9']))).toThrow(
      /^the mark "nightly" belongs to another store at https:\/\/api\.example\.com \(channel accounts chac_1\), not the one this key reaches \(chac_9\); use another --since-last name for this store$/,
    );
  });

  it('cannot tell the store with a key that may not list channel accounts: says which scope it needs', () => {
    expect(() => checkSameExport('nightly', savedBy(['chac_1']), run(null))).toThrow(/products:read/);
  });

  it('a mark that names its store by a key: the same key passes and the mark is named anew; another is refused with the way out', () => {
    const keyed = mark({
      store: { baseUrl: 'https://api.example.com', keyHash: store('svc_live_a').keyHash, profile: 'shop' },
    });
    expect(checkSameExport('nightly', keyed, run(['chac_1']))).toMatch(
      /now names its store by its channel accounts/,
    );
    expect(checkSameExport('nightly', keyed, run(null))).toBeUndefined();
    expect(() =>
      checkSameExport('nightly', keyed, run(['chac_1'], { keyHash: store('svc_live_b').keyHash })),
    ).toThrow(
      /another key.*delete \/cfg\/marks\/nightly\.json and start again with --created-after 2026-11-01/,
    );
  });

  it('says when a mark from before stores were named is adopted', () => {
    expect(checkSameExport('nightly', mark(), run())).toMatch(/saved before marks named their store/);
    expect(() => checkSameExport('nightly', mark({ filters: { status: 'shipped' } }), run())).toThrow(
      UsageError,
    );
  });

  it('saves the store by its channel accounts when the key could list them, else by the key', () => {
    expect(storeToSave(run(['chac_1']))).toEqual({
      baseUrl: 'https://api.example.com',
      channelAccounts: ['chac_1'],
    });
    expect(storeToSave(run(null))).toEqual({
      baseUrl: 'https://api.example.com',
      keyHash: store('svc_live_a').keyHash,
    });
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
