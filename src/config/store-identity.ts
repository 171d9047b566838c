/**
 * Which store saved state belongs to: the profile (when the key came from it) and a hash of
 * the key and the base URL, never the key itself. The one rule for every kind of saved state:
 * two stores on one service, or one store's two profiles, never share an incremental-export
 * mark or a push journal.
 */
import { createHash } from 'node:crypto';

/** The store a mark was made for. */
export interface StoreIdentity {
  /** The profile whose key was used; absent when the key came from SVC_API_KEY. */
  profile?: string;
  /** The base URL, normalised (see normalBaseUrl). */
  baseUrl: string;
  /** SHA-256 of the base URL and the key, first 16 hex digits. */
  keyHash: string;
}

/** What the identity is made from: the resolved credentials of the run. */
export interface IdentityInputs {
  profileName?: string;
  apiKeySource: string;
  apiKey?: string;
  baseUrl?: string;
}

/** The store these credentials reach. */
export function storeIdentity(credentials: IdentityInputs): StoreIdentity {
  const baseUrl = normalBaseUrl(credentials.baseUrl ?? '');
  const keyHash = createHash('sha256')
    .update(`${baseUrl}\n${credentials.apiKey ?? ''}`)
    .digest('hex')
    .slice(0, 16);
  const profile = credentials.apiKeySource === 'profile' ? credentials.profileName : undefined;
  return profile === undefined ? { baseUrl, keyHash } : { profile, baseUrl, keyHash };
}

/** Scheme, host, port and path as the URL parser writes them, without trailing slashes. */
export function normalBaseUrl(raw: string): string {
  try {
    const url = new URL(raw);
    return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
  } catch {
    return raw.replace(/\/+$/, '');
  }
}

/**
 * The store as one short name, for file names (push journals): a hash of the whole identity,
 * so it holds neither the key nor the address, and differs whenever sameStore() would say no.
 */
export function storeKey(store: StoreIdentity): string {
  return createHash('sha256')
    .update(JSON.stringify([store.profile ?? null, store.baseUrl, store.keyHash]))
    .digest('hex')
    .slice(0, 16);
}

/** True when both name the same store. */
export function sameStore(a: StoreIdentity, b: StoreIdentity): boolean {
  return a.keyHash === b.keyHash && a.baseUrl === b.baseUrl && a.profile === b.profile;
}

/** `profile "shop-a" at https://…` or `the SVC_API_KEY key at https://…`, for messages. */
export function describeStore(store: StoreIdentity): string {
  return `${store.profile === undefined ? 'the SVC_API_KEY key' : `profile "${store.profile}"`} at ${store.baseUrl}`;
}
