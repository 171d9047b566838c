/** Which key and base URL are in force, and where each came from (pure; precedence: docs/guide.md, Environment). */
import { holdsKey, keyMode } from '../contract/contract.js';
import { AuthError, KEY_MALFORMED, UsageError } from '../errors.js';

/**
 * Why `name` cannot name a profile, or undefined when it can: a name that looks like a key is
 * one pasted in the wrong place, and a name is printed whole wherever profiles are listed.
 */
export function profileNameProblem(name: string, where = 'a profile name'): string | undefined {
  if (name.trim() === '') return `${where} is empty; name a profile, e.g. default or shop`;
  if (holdsKey(name)) {
    return `${where} looks like an API key; a profile is named with a word such as default or shop (the key goes to the key prompt of svc auth login, --with-key-stdin or SVC_API_KEY, never to a flag)`;
  }
  return undefined;
}

/** One saved profile. */
export interface Profile {
  base_url?: string;
  /** The key itself, only when it is stored in this file (mode 0600). */
  api_key?: string;
  /** Where the key lives; profiles saved before the keyring existed have only `api_key` (the file). */
  key_storage?: KeyStorage;
  /** The keyring entry's account, when the key is in the OS keyring. */
  keyring_account?: string;
  /** The key as people see it (prefix and last 4), so that listing profiles never reads the keyring. */
  key_hint?: string;
  /** The shop names of the store's channel accounts, seen at login. */
  stores?: string[];
  /** The store's channel accounts by label, seen at login (what `profiles list` shows). */
  accounts?: string[];
  /** The Redis that shares pacing and the quota count across machines (as SVC_PACING_URL, which wins). */
  pacing_url?: string;
  /** A PEM file of CA certificates to trust for the service (as SVC_CA_FILE, which wins). */
  ca_file?: string;
}

/** Where a key is stored: the OS keyring, or the config file. */
export type KeyStorage = 'keyring' | 'file';

/** Where a saved profile's key is, if it has one. */
export function storageOf(profile: Profile): KeyStorage | undefined {
  if (profile.key_storage === 'keyring' && profile.keyring_account) return 'keyring';
  return profile.api_key ? 'file' : undefined;
}

/** Where a setting came from, as `svc auth status` reports it. */
export type Source = 'flag' | 'env' | 'profile' | 'none';

/** The resolved settings of one invocation. */
export interface Credentials {
  profileName?: string;
  profileSource: Source;
  apiKey?: string;
  apiKeySource: Source;
  /** Where a key from the profile is stored. */
  apiKeyStorage?: KeyStorage;
  /** Why a key the profile keeps in the OS keyring could not be read (the key is then absent). */
  keyProblem?: string;
  baseUrl?: string;
  baseUrlSource: Source;
  /** SVC_PACING_URL, else the profile's `pacing_url` (unchecked: src/client/pacing/pacing-url.ts checks it). */
  pacingUrl?: string;
  pacingUrlSource?: 'env' | 'profile';
  /** SVC_CA_FILE, else the profile's `ca_file`: CA certificates to trust besides the system's. */
  caFile?: string;
  caFileSource?: 'env' | 'profile';
}

/** What the resolution reads. */
export interface CredentialInputs {
  flags: { profile?: string; baseUrl?: string };
  env: NodeJS.ProcessEnv;
  currentProfile?: string;
  profiles: Record<string, Profile>;
}

const PROFILE_FROM = { flag: '--profile', env: 'SVC_PROFILE' } as const;

/**
 * Flag, then environment, then profile; an explicit --profile wins over SVC_API_KEY and
 * SVC_BASE_URL, since the user named it.
 */
export function resolveCredentials({ flags, env, currentProfile, profiles }: CredentialInputs): Credentials {
  const explicitProfile = flags.profile !== undefined;
  let profileName: string | undefined;
  let profileSource: Source = 'none';
  if (flags.profile !== undefined) [profileName, profileSource] = [flags.profile, 'flag'];
  else if (env.SVC_PROFILE) [profileName, profileSource] = [env.SVC_PROFILE, 'env'];
  else if (currentProfile) [profileName, profileSource] = [currentProfile, 'profile'];
  // A current profile named by an older svc is not refused: it can still be used and removed.
  if (profileName !== undefined && (profileSource === 'flag' || profileSource === 'env')) {
    const refused = profileNameProblem(profileName, PROFILE_FROM[profileSource]);
    if (refused) throw new UsageError(refused);
  }

  const profile = profileName !== undefined ? profiles[profileName] : undefined;
  if (profileName !== undefined && !profile && profileSource !== 'profile') {
    const known = Object.keys(profiles);
    throw new UsageError(
      `unknown profile "${profileName}"; ${known.length ? `known: ${known.join(', ')}` : 'none saved yet'} (svc profiles list, svc auth login --profile ${profileName})`,
    );
  }

  // A secrets file ends with a newline; the key is what is around it.
  const envKey = explicitProfile ? undefined : env.SVC_API_KEY?.trim() || undefined;
  const envBase = explicitProfile ? undefined : env.SVC_BASE_URL || undefined;
  // A key in the OS keyring is read by the caller, only when it is needed.
  const storage = !envKey && profile ? storageOf(profile) : undefined;
  const [apiKey, apiKeySource]: [string | undefined, Source] = envKey
    ? [envKey, 'env']
    : storage
      ? [profile?.api_key, 'profile']
      : [undefined, 'none'];
  const [baseUrl, baseUrlSource]: [string | undefined, Source] = flags.baseUrl
    ? [flags.baseUrl, 'flag']
    : envBase
      ? [envBase, 'env']
      : profile?.base_url
        ? [profile.base_url, 'profile']
        : explicitProfile && env.SVC_BASE_URL
          ? [env.SVC_BASE_URL, 'env']
          : [undefined, 'none'];
  const caFile = env.SVC_CA_FILE?.trim() || profile?.ca_file?.trim() || undefined;
  const pacingUrl = env.SVC_PACING_URL?.trim()
    ? env.SVC_PACING_URL
    : profile?.pacing_url?.trim() || undefined;
  return {
    profileName: profile ? profileName : undefined,
    profileSource,
    apiKey,
    apiKeySource,
    apiKeyStorage: storage,
    baseUrl,
    baseUrlSource,
    ...(pacingUrl ? { pacingUrl, pacingUrlSource: env.SVC_PACING_URL?.trim() ? 'env' : 'profile' } : {}),
    ...(caFile ? { caFile, caFileSource: env.SVC_CA_FILE?.trim() ? 'env' : 'profile' } : {}),
  };
}

/** The base URL in force, or the UsageError (exit 2) that says there is none or it is not http(s). */
export function requireBaseUrl(baseUrl: string | undefined): string {
  if (!baseUrl) {
    throw new UsageError(
      'no service address configured; run `svc auth login`, or set SVC_BASE_URL or --base-url (e.g. the URL `svc emulator start` prints)',
    );
  }
  try {
    const url = new URL(baseUrl);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('protocol');
  } catch {
    throw new UsageError(`base URL "${baseUrl}" is not an http(s) URL, e.g. https://api.example.com`);
  }
  return baseUrl;
}

/** The key in force, or the AuthError (exit 4) that says why there is none or it is malformed. */
export function requireKey(credentials: Credentials): string {
  const { apiKey, apiKeySource, profileName, keyProblem } = credentials;
  if (!apiKey && keyProblem) {
    throw new AuthError(
      `profile "${profileName}" keeps its key in the OS keyring, but ${keyProblem}; unlock the keyring and run again, or log in again (svc auth login --profile ${profileName}, with --insecure-storage to keep the key in the config file)`,
      'api_key_unavailable',
    );
  }
  if (!apiKey) {
    throw new AuthError(
      'no API key configured; run `svc auth login`, or set SVC_API_KEY (keys are never taken from a flag)',
      'api_key_missing',
    );
  }
  if (!keyMode(apiKey)) {
    const where = apiKeySource === 'env' ? 'SVC_API_KEY' : `profile "${profileName}"`;
    throw new AuthError(
      `the API key from ${where} is malformed: keys look like svc_live_… or svc_test_…; nothing was sent`,
      KEY_MALFORMED,
    );
  }
  return apiKey;
}
