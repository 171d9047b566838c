/** The checks a run makes of the connection settings before anything is sent: an address, and a usable key. */
import type { Credentials } from '../config/credentials.js';
import { keyMode } from '../contract/contract.js';
import { AuthError, KEY_MALFORMED, UsageError } from '../errors.js';

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
