import { describe, expect, it } from 'vitest';
import { resolveCredentials, storageOf } from '../../../src/config/credentials.js';
import { deleteKey, keyringAccount, readKey, saveKey, withoutKey } from '../../../src/config/key-store.js';
import { FakeKeyring } from '../../helpers/fake-keyring.js';

const KEY = 'svc_live_abcdefghijkl1234';

describe('saveKey: where a new key goes', () => {
  it('into the OS keyring when it takes the key; the profile keeps only where it is', async () => {
    const keyring = new FakeKeyring();
    const stored = await saveKey(keyring, { account: 'default@/cfg', apiKey: KEY, insecure: false });
    expect(stored).toEqual({
      storage: 'keyring',
      fields: { key_storage: 'keyring', keyring_account: 'default@/cfg' },
    });
    expect(keyring.entries.get('default@/cfg')).toBe(KEY);
    expect(JSON.stringify(stored.fields)).not.toContain(KEY);
  });

  it('into the file, with the reason, when the keyring does not take it', async () => {
    const keyring = new FakeKeyring();
    keyring.failing = 'the OS keyring did not answer within 3 s (locked?)';
    const stored = await saveKey(keyring, { account: 'a', apiKey: KEY, insecure: false });
    expect(stored).toEqual({
      storage: 'file',
      fields: { api_key: KEY, key_storage: 'file' },
      fallbackReason: 'the OS keyring did not answer within 3 s (locked?)',
    });
  });

  it('into the file without asking the keyring with --insecure-storage', async () => {
    const keyring = new FakeKeyring();
    const stored = await saveKey(keyring, { account: 'a', apiKey: KEY, insecure: true });
    expect(stored).toEqual({ storage: 'file', fields: { api_key: KEY, key_storage: 'file' } });
    expect(keyring.calls).toEqual([]);
  });
});

describe('readKey and deleteKey go where the profile says', () => {
  const inKeyring = { base_url: 'https://x', key_storage: 'keyring' as const, keyring_account: 'p@/cfg' };

  it('reads a file key without touching the keyring, and a keyring key from it', async () => {
    const keyring = new FakeKeyring();
    expect(await readKey(keyring, { api_key: KEY })).toEqual({ apiKey: KEY });
    expect(keyring.calls).toEqual([]);
    keyring.entries.set('p@/cfg', KEY);
    expect(await readKey(keyring, inKeyring)).toEqual({ apiKey: KEY });
  });

  it('says why when the keyring cannot give the key: gone, or the keyring failing', async () => {
    const keyring = new FakeKeyring();
    expect(await readKey(keyring, inKeyring)).toEqual({ problem: 'its key is no longer in the OS keyring' });
    keyring.failing = 'no Secret Service here';
    expect((await readKey(keyring, inKeyring)).problem).toContain('no Secret Service here');
  });

  it('deletes from the keyring, reports a keyring that will not, and leaves file keys to the caller', async () => {
    const keyring = new FakeKeyring();
    keyring.entries.set('p@/cfg', KEY);
    expect(await deleteKey(keyring, inKeyring)).toBeUndefined();
    expect(keyring.entries.size).toBe(0);
    expect(await deleteKey(keyring, { api_key: KEY })).toBeUndefined();
    expect(keyring.calls).toEqual(['delete p@/cfg']);
    keyring.failing = 'locked';
    expect(await deleteKey(keyring, inKeyring)).toMatch(/could not delete .*locked.*p@\/cfg/);
    expect(withoutKey({ ...inKeyring, key_hint: 'svc_live_…1234', stores: ['S'] })).toEqual({
      base_url: 'https://x',
      stores: ['S'],
    });
  });
});

describe('where a profile keeps its key', () => {
  it('profiles saved before the keyring existed hold the key in the file', () => {
    expect(storageOf({ api_key: KEY })).toBe('file');
    expect(storageOf({ key_storage: 'keyring', keyring_account: 'a' })).toBe('keyring');
    expect(storageOf({ base_url: 'https://x' })).toBeUndefined();
  });

  it('a keyring account names the profile and the config dir, so two config dirs never share one', () => {
    expect(keyringAccount('/home/me/.config/svc', 'default')).toBe('default@/home/me/.config/svc');
    expect(keyringAccount('/tmp/a', 'default')).not.toBe(keyringAccount('/tmp/b', 'default'));
  });

  it('resolution leaves a keyring key to be read, and says the profile is its source', () => {
    const credentials = resolveCredentials({
      flags: {},
      env: {},
      currentProfile: 'p',
      profiles: { p: { base_url: 'https://x', key_storage: 'keyring', keyring_account: 'p@/cfg' } },
    });
    expect(credentials).toMatchObject({
      apiKey: undefined,
      apiKeySource: 'profile',
      apiKeyStorage: 'keyring',
    });
    const fromEnv = resolveCredentials({
      flags: {},
      env: { SVC_API_KEY: KEY },
      currentProfile: 'p',
      profiles: { p: { key_storage: 'keyring', keyring_account: 'p@/cfg' } },
    });
    expect(fromEnv).toMatchObject({ apiKey: KEY, apiKeySource: 'env', apiKeyStorage: undefined });
  });
});
