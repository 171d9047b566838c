/**
 * The Redis that `svc` processes on several machines share a key's pacing and quota count
 * through (SVC_PACING_URL, or a profile's `pacing_url`): `redis://[user:pass@]host:port[/db]`,
 * or `rediss://…` for TLS. Pure and light (read before a command runs; the Redis client is
 * loaded only once a request needs it). Its password is never shown: `shown` masks it.
 */
import { UsageError } from '../../errors.js';

/** A pacing URL, checked. */
export interface PacingUrl {
  /** As given, password included: for the Redis client only. */
  readonly url: string;
  /** As people see it: the password replaced by `***`. */
  readonly shown: string;
  /** Where it was set, as messages name it: `SVC_PACING_URL`, or `pacing_url of profile "ci"`. */
  readonly setting: string;
  /** The password as given and as decoded, for the output boundary to mask (empty when none). */
  readonly secrets: readonly string[];
}

/** Who set the URL. */
export type PacingUrlSource = { env: true } | { profile: string };

/** What a pacing URL looks like, for messages. */
const PACING_URL_FORM = 'redis://[user:pass@]host:port[/db] or rediss://… (TLS)';

/** The setting as messages name it. */
function settingName(source: PacingUrlSource): string {
  return 'env' in source ? 'SVC_PACING_URL' : `pacing_url of profile "${source.profile}"`;
}

/**
 * The URL checked (exit 2 when svc cannot use it, the password never repeated), or undefined
 * when it is empty (no sharing across machines).
 */
export function parsePacingUrl(text: string | undefined, source: PacingUrlSource): PacingUrl | undefined {
  const value = text?.trim() ?? '';
  if (value === '') return undefined;
  const setting = settingName(source);
  const refuse = (why: string) =>
    new UsageError(`${setting} must be ${PACING_URL_FORM}; ${why} (got ${maskUrlPassword(value)})`);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw refuse('it is not a URL');
  }
  if (url.protocol !== 'redis:' && url.protocol !== 'rediss:') throw refuse(`${url.protocol}// is not Redis`);
  if (url.hostname === '') throw refuse('it names no host');
  const db = url.pathname.replace(/^\//, '');
  if (db !== '' && !/^\d{1,5}$/.test(db)) throw refuse(`"/${db}" is not a database number`);
  if (url.search !== '' || url.hash !== '') throw refuse('it takes no query or fragment');
  const secrets = url.password ? [url.password, safeDecode(url.password)] : [];
  return { url: value, shown: maskUrlPassword(value), setting, secrets: [...new Set(secrets)] };
}

/** The pacing URL of resolved settings (SVC_PACING_URL, else the profile's `pacing_url`), checked. */
export function pacingUrlOf(settings: {
  pacingUrl?: string;
  pacingUrlSource?: 'env' | 'profile';
  profileName?: string;
}): PacingUrl | undefined {
  const source: PacingUrlSource =
    settings.pacingUrlSource === 'profile' ? { profile: settings.profileName ?? '' } : { env: true };
  return parsePacingUrl(settings.pacingUrl, source);
}

/** `text` with the password of any `scheme://user:password@` in it replaced by `***`. */
export function maskUrlPassword(text: string): string {
  // Up to the last `@` of the authority: a password may hold an `@` its writer did not encode.
  return text.replace(/([a-z][a-z0-9+.-]*:\/\/[^\s/:@]*:)[^\s/]*@/gi, '$1***@');
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
