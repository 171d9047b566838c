/**
 * The key and base URL in force, as `svc` and the library both resolve them: the flags (the
 * library's options), then the environment, then the saved profile (resolveCredentials), and a
 * key the profile keeps in the OS keyring read from it. The CLI's context and the library's
 * connect call this one function.
 */
import { type Credentials, type Profile, resolveCredentials } from './credentials.js';
import type { KeyringBackend } from './keyring.js';

/** What the resolution reads. */
export interface CredentialsInput {
  /** `--profile` and `--base-url` (the library's `profile` and `baseUrl` options). */
  flags: { profile?: string; baseUrl?: string };
  env: NodeJS.ProcessEnv;
  /** The saved profiles, as read from config.json. */
  config: { currentProfile?: string; profiles: Record<string, Profile> };
  /**
   * The keyring to read a key the profile keeps there; absent, that key is not read (left
   * undefined, as when the keyring is not wanted: a key given otherwise, a public endpoint).
   */
  keyring?: () => Promise<KeyringBackend>;
}

/**
 * The settings in force with their sources. A key the profile keeps in the OS keyring is read
 * from it (the keyring code loads only then); when it cannot be, `keyProblem` says why.
 */
export async function credentialsInForce({
  flags,
  env,
  config,
  keyring,
}: CredentialsInput): Promise<Credentials> {
  const credentials = resolveCredentials({
    flags,
    env,
    currentProfile: config.currentProfile,
    profiles: config.profiles,
  });
  if (credentials.apiKeyStorage !== 'keyring' || !keyring) return credentials;
  const { readKey } = await import('./key-store.js');
  const profile = config.profiles[credentials.profileName ?? ''] ?? {};
  const { apiKey, problem } = await readKey(await keyring(), profile);
  return { ...credentials, apiKey, keyProblem: problem };
}
