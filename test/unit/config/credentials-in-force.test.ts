// The one resolution of the key and base URL in force that the CLI's context and the library's
// connect share: flags, then environment, then profile, a key kept in the OS keyring read from it.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Profile } from '../../../src/config/credentials.js';
import { credentialsInForce } from '../../../src/config/credentials-in-force.js';
import { FakeKeyring } from '../../helpers/fake-keyring.js';

const LIVE = 'svc_live_keyringkeyring3333';
const profiles: Record<string, Profile> = {
  shop: {
    base_url: 'https://shop.example.com',
    key_storage: 'keyring',
    keyring_account: 'shop@shop.example.com',
    key_hint: 'svc_live_…3333',
  },
  file: { api_key: 'svc_test_filefilefile4444', base_url: 'https://file.example.com' },
};

function keyringHolding(entries: Record<string, string> = { 'shop@shop.example.com': LIVE }): FakeKeyring {
  const keyring = new FakeKeyring();
  for (const [account, secret] of Object.entries(entries)) keyring.entries.set(account, secret);
  return keyring;
}

describe('credentialsInForce', () => {
  it("reads the current profile's key from the OS keyring, once", async () => {
    const keyring = keyringHolding();
    const credentials = await credentialsInForce({
      flags: {},
      env: {},
      config: { currentProfile: 'shop', profiles },
      keyring: async () => keyring,
    });
    expect(credentials).toMatchObject({
      profileName: 'shop',
      apiKey: LIVE,
      apiKeySource: 'profile',
      apiKeyStorage: 'keyring',
      baseUrl: 'https://shop.example.com',
      baseUrlSource: 'profile',
    });
    expect(credentials.keyProblem).toBeUndefined();
    expect(keyring.calls).toEqual(['get shop@shop.example.com']);
  });

  it('leaves the keyring alone without one to read, and for a key SVC_API_KEY or the file holds', async () => {
    const keyring = keyringHolding();
    const without = await credentialsInForce({
      flags: {},
      env: {},
      config: { currentProfile: 'shop', profiles },
    });
    expect(without).toMatchObject({
      apiKey: undefined,
      apiKeyStorage: 'keyring',
      baseUrl: 'https://shop.example.com',
    });
    const fromEnv = await credentialsInForce({
      flags: {},
      env: { SVC_API_KEY: 'svc_test_envenvenvenv5555', SVC_BASE_URL: 'http://127.0.0.1:9' },
      config: { currentProfile: 'shop', profiles },
      keyring: async () => keyring,
    });
    expect(fromEnv).toMatchObject({
      apiKey: 'svc_test_envenvenvenv5555',
      apiKeySource: 'env',
      baseUrl: 'http://127.0.0.1:9',
      baseUrlSource: 'env',
    });
    const fromFile = await credentialsInForce({
      flags: { profile: 'file', baseUrl: 'http://[::1]:9' },
      env: {},
      config: { currentProfile: 'shop', profiles },
      keyring: async () => keyring,
    });
    expect(fromFile).toMatchObject({
      profileName: 'file',
      apiKey: 'svc_test_filefilefile4444',
      apiKeyStorage: 'file',
      baseUrl: 'http://[::1]:9',
      baseUrlSource: 'flag',
    });
    expect(keyring.calls).toEqual([]);
  });

  it('says why when the keyring cannot give the key', async () => {
    const locked = keyringHolding();
    locked.failing = 'the keyring is locked';
    const gone = keyringHolding({});
    for (const [keyring, problem] of [
      [locked, /the OS keyring did not give its key \(.*locked.*\)/],
      [gone, /its key is no longer in the OS keyring/],
    ] as const) {
      const credentials = await credentialsInForce({
        flags: {},
        env: {},
        config: { currentProfile: 'shop', profiles },
        keyring: async () => keyring,
      });
      expect(credentials.apiKey).toBeUndefined();
      expect(credentials.keyProblem).toMatch(problem);
    }
  });
});

it('is the one place the key and base URL in force are resolved: the CLI and the library both call it', () => {
  const src = join(import.meta.dirname, '..', '..', '..', 'src');
  const files = (readdirSync(src, { recursive: true }) as string[]).filter((file) => file.endsWith('.ts'));
  const calling = (pattern: RegExp) =>
    files.filter((file) => pattern.test(readFileSync(join(src, file), 'utf8'))).sort();
  expect(calling(/\bresolveCredentials\(/)).toEqual([
    'config/credentials-in-force.ts',
    'config/credentials.ts',
  ]);
  expect(calling(/\breadKey\(/)).toEqual(['config/credentials-in-force.ts', 'config/key-store.ts']);
  expect(calling(/\bcredentialsInForce\(/)).toEqual([
    'cmdutil/saved-settings.ts',
    'config/credentials-in-force.ts',
    'library/connect.ts',
  ]);
});
