/**
 * The settings of a library client, resolved as the CLI resolves them: an option given wins,
 * then SVC_API_KEY, SVC_BASE_URL and SVC_PACING_URL, then the profile (the current one, or
 * the one named), whose key may be in the OS keyring. Pacing and the quota count are shared
 * with the svc processes on the same key, through the config dir or the Redis at `pacingUrl`.
 */
import { ApiClient } from '../client/client.js';
import { connectionSettings, STOP_GRACE_MS, sharedPacingFor } from '../client/connection-settings.js';
import { configDir, readConfig } from '../config/config-store.js';
import { type Credentials, requireBaseUrl, requireKey } from '../config/credentials.js';
import { credentialsInForce } from '../config/credentials-in-force.js';

export { ENDPOINTS } from '../contract/endpoints.js';

/** How a library client connects; everything is optional. */
export interface ClientOptions {
  /** The API key (`svc_live_…` or `svc_test_…`); default: SVC_API_KEY, else the profile's key. */
  apiKey?: string;
  /** The saved profile to read (as `svc --profile`); default: SVC_PROFILE, else the current one. */
  profile?: string;
  /** The part before `/rest/v1`; default: SVC_BASE_URL, else the profile's. */
  baseUrl?: string;
  /** `redis://…` shares pacing and the quota count across machines; default: SVC_PACING_URL, else the profile's. */
  pacingUrl?: string;
  /** Sent as the User-Agent (default `svc/<version>`). */
  userAgent?: string;
  /** Once aborted, no request starts and no retry waits (a write in flight gets a short grace to land). */
  signal?: AbortSignal;
  /** Retries of one request for network errors and 5xx (default: SVC_MAX_RETRIES, else 5, as the CLI). */
  maxRetries?: number;
  /** The environment to read (default: process.env). */
  env?: NodeJS.ProcessEnv;
}

/**
 * The client of these options; a missing or malformed key (unless `anonymous`: the public
 * endpoints send none) or base URL throws an SvcError before anything is sent. Retries, the
 * request deadline and what is shared with other svc processes (pacing, the quota count) are
 * resolved by the functions the CLI's context uses (src/client/connection-settings.ts).
 */
export async function connect(options: ClientOptions, anonymous = false): Promise<Connected> {
  const env = options.env ?? process.env;
  const dir = configDir(env);
  const config = readConfig(dir);
  // The key a caller gives wins; else the CLI's resolution, the keyring read only when it holds the key.
  const given = options.apiKey;
  const credentials = await credentialsInForce({
    flags: { profile: options.profile, baseUrl: options.baseUrl },
    env,
    config,
    keyring:
      given === undefined && !anonymous
        ? async () => (await import('../config/keyring.js')).osKeyring(env)
        : undefined,
  });
  const inForce: Credentials =
    given === undefined ? credentials : { ...credentials, apiKey: given, apiKeySource: 'flag' };
  const key = anonymous ? inForce.apiKey : requireKey(inForce);
  const settings = connectionSettings({ maxRetries: options.maxRetries }, env);
  const pacingUrl = options.pacingUrl !== undefined ? { pacingUrl: options.pacingUrl } : credentials;
  const client = new ApiClient({
    baseUrl: requireBaseUrl(credentials.baseUrl),
    apiKey: key,
    maxRetries: settings.maxRetries,
    requestTimeoutMs: settings.requestTimeoutMs,
    userAgent: options.userAgent ?? `svc/${__SVC_VERSION__}`,
    crawlSignal: options.signal,
    stopSignal: options.signal,
    stopGraceMs: STOP_GRACE_MS,
    sharedPacing: await sharedPacingFor(
      env,
      settings.sharedPacing,
      async () => pacingUrl,
      () => undefined,
    ),
    env,
  });
  return { client, credentials: { ...inForce, apiKey: key }, configDir: dir };
}
/** A connected client, with what names its store (the push journal's key) and the config dir. */
export interface Connected {
  client: ApiClient;
  credentials: Credentials;
  configDir: string;
}
