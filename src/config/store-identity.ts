/**
 * Which store saved state belongs to, never holding a key. A push journal belongs to the
 * profile (when the key came from it) and a hash of the key and the base URL: two stores on
 * one service, or one store's two profiles, never share one. An incremental-export mark
 * belongs to the store itself, the service address and its channel accounts, whatever key
 * reads it, so that a routine key rotation carries on from it (see markStoreOf).
 */
import { createHash } from 'node:crypto';
import { API_PREFIX } from '../contract/contract.js';

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

/**
 * Names every loopback address a base URL may spell `localhost` as: `localhost` resolves to
 * 127.0.0.1 (what a name is kept apart by is what it resolves to), and the service behind both
 * is one.
 */
const LOOPBACK_NAMES = /^(?:localhost|[a-z0-9-]+\.localhost)$/;

/**
 * The one spelling of a base URL that keys pacing, the quota count, marks and journals: scheme
 * and host in lower case (`localhost` as 127.0.0.1), no default port, no user info, query or
 * fragment, no trailing slashes, and no API prefix (`/rest/v1`), which svc adds itself. Pure:
 * two spellings of one service give one string, whatever their order of writing.
 */
export function normalBaseUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return raw.trim().replace(/\/+$/, '');
  }
  // The parser already lowers scheme and host and drops a default port.
  const host = LOOPBACK_NAMES.test(url.hostname) ? '127.0.0.1' : url.hostname;
  const port = url.port === '' ? '' : `:${url.port}`;
  let path = url.pathname.replace(/\/+$/, '');
  if (path.toLowerCase().endsWith(API_PREFIX)) path = path.slice(0, -API_PREFIX.length).replace(/\/+$/, '');
  const scheme = url.protocol;
  return url.host === '' ? `${scheme}${path}` : `${scheme}//${host}${port}${path}`;
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

/**
 * The store an export mark belongs to: the service address and the ids of the store's channel
 * accounts (sorted), which every key of the store reads alike and no other store shares.
 */
export interface MarkStore {
  baseUrl: string;
  channelAccounts: string[];
}

/** The mark store of `baseUrl` whose channel accounts are `accountIds`. */
export function markStoreOf(baseUrl: string, accountIds: readonly string[]): MarkStore {
  return { baseUrl: normalBaseUrl(baseUrl), channelAccounts: [...new Set(accountIds)].sort() };
}

/**
 * True when both name one store: the same address, and a channel account in common (an
 * account id belongs to one store; a store that connects or drops a channel keeps the
 * others), or no account on either side.
 */
export function sameMarkStore(a: MarkStore, b: MarkStore): boolean {
  if (normalBaseUrl(a.baseUrl) !== normalBaseUrl(b.baseUrl)) return false;
  if (a.channelAccounts.length === 0 && b.channelAccounts.length === 0) return true;
  const theirs = new Set(a.channelAccounts);
  return b.channelAccounts.some((id) => theirs.has(id));
}

/** `chac_1, chac_2 and 3 more`, or `no channel accounts`, for messages. */
export function describeAccounts(ids: readonly string[], shown = 3): string {
  if (ids.length === 0) return 'no channel accounts';
  const head = ids.slice(0, shown).join(', ');
  return ids.length > shown ? `${head} and ${ids.length - shown} more` : head;
}
