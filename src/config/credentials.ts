/** Which key and base URL are in force, and where each came from (pure; precedence: README, Environment). */
import { UsageError } from '../errors.js';

/** One saved profile. */
export interface Profile {
  base_url?: string;
  api_key?: string;
}

/** Where a setting came from, as `svc auth status` reports it. */
export type Source = 'flag' | 'env' | 'profile' | 'none';

/** The resolved settings of one invocation. */
export interface Credentials {
  profileName?: string;
  profileSource: Source;
  apiKey?: string;
  apiKeySource: Source;
  baseUrl?: string;
  baseUrlSource: Source;
}

/** What the resolution reads. */
export interface CredentialInputs {
  flags: { profile?: string; baseUrl?: string };
  env: NodeJS.ProcessEnv;
  currentProfile?: string;
  profiles: Record<string, Profile>;
}

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

  const profile = profileName !== undefined ? profiles[profileName] : undefined;
  if (profileName !== undefined && !profile && profileSource !== 'profile') {
    const known = Object.keys(profiles);
    throw new UsageError(
      `unknown profile "${profileName}"; ${known.length ? `known: ${known.join(', ')}` : 'none saved yet'} (svc profiles list, svc auth login --profile ${profileName})`,
    );
  }

  const envKey = explicitProfile ? undefined : env.SVC_API_KEY || undefined;
  const envBase = explicitProfile ? undefined : env.SVC_BASE_URL || undefined;
  const [apiKey, apiKeySource]: [string | undefined, Source] = envKey
    ? [envKey, 'env']
    : profile?.api_key
      ? [profile.api_key, 'profile']
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
  return {
    profileName: profile ? profileName : undefined,
    profileSource,
    apiKey,
    apiKeySource,
    baseUrl,
    baseUrlSource,
  };
}
