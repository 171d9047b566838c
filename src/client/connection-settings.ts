/**
 * What the environment adds to the connection settings given (the CLI's flags, the library's
 * options), read before anything is sent: retries, the request deadline and pacing shared
 * with other processes. The CLI's context and the library's connect both build their clients
 * from these.
 */

import { UsageError } from '../errors.js';
import { parseSeconds, secondsRange } from '../seconds.js';
import type { PacingUrl, pacingUrlOf } from './pacing/pacing-url.js';

/** How long a write in flight may take to land once a run is stopped (a signal, a library signal). */
export const STOP_GRACE_MS = 2000;

/** How this run's clients connect. */
export interface ConnectionSettings {
  /** --max-retries, else SVC_MAX_RETRIES, else 5. */
  maxRetries: number;
  /** --request-timeout, else SVC_REQUEST_TIMEOUT, in ms; undefined leaves the transport's default. */
  requestTimeoutMs?: number;
  /** Pacing shared with the other svc processes on a key, unless SVC_SHARED_PACING=0. */
  sharedPacing: boolean;
}

/** What a client shares with the other processes on its key: where, whether pacing, and through which Redis. */
export interface SharedPacing {
  dir: string;
  /** The quota count's folder: the user's state dir, whatever the config dir. */
  quotaDir: string;
  pacing: boolean;
  url?: PacingUrl;
}

/**
 * What a client shares: the quota count (in the user's state dir, whatever the config dir), pacing unless SVC_SHARED_PACING=0,
 * both through Redis when a pacing URL is set (a URL svc cannot use exits 2 here, before
 * anything is sent; its password is handed to `protectPassword`, masked from then on).
 */
export async function sharedPacingFor(
  env: Readonly<NodeJS.ProcessEnv>,
  pacing: boolean,
  settings: () => Promise<Parameters<typeof pacingUrlOf>[0]>,
  protectPassword: (password: string) => void,
): Promise<SharedPacing> {
  const [{ configDir, quotaCountDir }, { sharedPacingDir }, { pacingUrlOf }, { makeDirectory }] =
    await Promise.all([
      import('../config/config-store.js'),
      import('./pacing/record-file.js'),
      import('./pacing/pacing-url.js'),
      import('../config/directory.js'),
    ]);
  const url = pacing ? pacingUrlOf(await settings()) : undefined;
  for (const password of url?.secrets ?? []) protectPassword(password);
  const dir = sharedPacingDir(configDir(env));
  // Made now, so that a folder that cannot be made stops the run before anything is sent (exit 2);
  // a process that paces alone keeps no record there.
  if (pacing) makeDirectory(dir);
  return { dir, quotaDir: quotaCountDir(env), pacing, url };
}

/** Reads the connection settings from the parsed flags and the environment; a bad value exits 2. */
export function connectionSettings(
  flags: { maxRetries?: number; requestTimeout?: number },
  env: Readonly<NodeJS.ProcessEnv>,
): ConnectionSettings {
  return {
    maxRetries: flags.maxRetries ?? maxRetriesFromEnv(env.SVC_MAX_RETRIES),
    requestTimeoutMs:
      flags.requestTimeout !== undefined
        ? flags.requestTimeout * 1000
        : requestTimeoutFromEnv(env.SVC_REQUEST_TIMEOUT),
    sharedPacing: sharedPacingFromEnv(env.SVC_SHARED_PACING),
  };
}

function maxRetriesFromEnv(value: string | undefined): number {
  if (value === undefined || value === '') return 5;
  if (!/^\d+$/.test(value)) throw new UsageError(`SVC_MAX_RETRIES must be a whole number, got "${value}"`);
  return Number(value);
}

function requestTimeoutFromEnv(value: string | undefined): number | undefined {
  if (value === undefined || value === '') return undefined;
  const seconds = parseSeconds(value);
  if (seconds === undefined)
    throw new UsageError(`SVC_REQUEST_TIMEOUT must be ${secondsRange()}, got "${value}"`);
  return seconds * 1000;
}

function sharedPacingFromEnv(value: string | undefined): boolean {
  const setting = (value ?? '').trim().toLowerCase();
  if (['0', 'false', 'off', 'no'].includes(setting)) return false;
  if (['', '1', 'true', 'on', 'yes'].includes(setting)) return true;
  throw new UsageError(`SVC_SHARED_PACING must be 0 (off) or 1 (on), got "${value}"`);
}
