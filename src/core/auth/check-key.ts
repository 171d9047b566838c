/**
 * What the service says about a key: one cheap authenticated read (the channel accounts,
 * which name the store), then one read per read scope. Write scopes are never probed: the
 * only way to learn one works is a write, which changes the store.
 */
import type { ApiClient } from '../../client/client.js';
import type { Source } from '../../config/credentials.js';
import {
  ERROR_CODES,
  INITIAL_DRAIN_RATIO,
  RATE_LIMIT_HEADERS,
  RATE_TIERS,
  READ_SCOPE_PROBES,
  type ReadScope,
} from '../../contract/contract.js';
import { ENDPOINTS } from '../../contract/endpoints.js';
import type { ChannelAccountSummary } from '../../contract/schemas/channel-account.js';
import { ApiError } from '../../errors.js';
import { JOB_SECRET_ADVICE } from './advice.js';

/** The rate-limit tier read from `X-RateLimit-Limit`: burst B, steady rate B / 20 per second. */
export interface RateTier {
  burst: number;
  perSecond: number;
  /** The published tier with this burst, if any (`top`, `trial`). */
  tier?: keyof typeof RATE_TIERS;
}

/** A channel account as people know it: its label (else its shop name, else its id). */
interface AccountName {
  id: string;
  channel: string;
  label: string;
}

/** What one authenticated read learned. */
export type KeyCheck =
  | {
      accepted: true;
      /** Shop names of the store's channel accounts; undefined when the key cannot read them. */
      stores?: string[];
      /** The store's channel accounts in the service's order; undefined when the key cannot read them. */
      accounts?: AccountName[];
      /** Set when the key is known but cannot read the channel accounts (403). */
      note?: string;
      rateTier?: RateTier;
      /** The service's clock, from the answer's Date header. */
      serverDate?: Date;
    }
  | {
      accepted: false;
      /** The service's refusal: 401, or 403 `plan_not_eligible` (the store's subscription lapsed). */
      error: ApiError;
    };

/** How one read scope fared: it works, the key lacks it, or the probe failed otherwise. */
type ScopeProbe = { scope: ReadScope; ok: true } | { scope: ReadScope; ok: false; reason: string };

/**
 * One cheap authenticated read: GET /channel_accounts. 200 means the key works (and names
 * the store), 403 `scope_missing` that the service knows it; 401 and 403 `plan_not_eligible`
 * are refusals. Other failures (network, 5xx after retries) are thrown.
 */
export async function checkKey(client: ApiClient): Promise<KeyCheck> {
  try {
    const answer = await client.callForAnswer(ENDPOINTS.listChannelAccounts, { query: { limit: 100 } });
    const read: ChannelAccountSummary[] = answer.body;
    const stores = [...new Set(read.map((account) => account.shop_name).filter(isText))].sort();
    const accounts = read.map((account) => ({
      id: account.id,
      channel: account.channel,
      label: [account.label, account.shop_name].find(isText) ?? account.id,
    }));
    return {
      accepted: true,
      stores,
      accounts,
      rateTier: rateTierOf(answer.headers),
      serverDate: answer.serverDate,
    };
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    if (error.status === 401 || (error.status === 403 && error.code === ERROR_CODES.planNotEligible)) {
      return { accepted: false, error };
    }
    if (error.status !== 403) throw error;
    return {
      accepted: true,
      note: `the key cannot read the channel accounts (${error.code ?? 'HTTP 403'}), so the store is not known`,
      serverDate: client.lastServerDate,
    };
  }
}

/** A key checked, and when accepted, each of its read scopes probed. */
export type KeyInspection =
  | (Extract<KeyCheck, { accepted: true }> & { scopes: ScopeProbe[] })
  | Extract<KeyCheck, { accepted: false }>;

/** `auth status`: the cheap read, then (when the key is accepted) one read per read scope. */
export async function inspectKey(client: ApiClient): Promise<KeyInspection> {
  const check = await checkKey(client);
  if (!check.accepted) return check;
  return { ...check, scopes: await probeReadScopes(client) };
}

/** One cheap read (a page of one item) per read scope, in the order of READ_SCOPE_PROBES. */
async function probeReadScopes(client: ApiClient): Promise<ScopeProbe[]> {
  const probes: ScopeProbe[] = [];
  for (const [scope, path] of Object.entries(READ_SCOPE_PROBES) as Array<[ReadScope, string]>) {
    try {
      await client.request({ method: 'GET', path, query: { limit: 1 } });
      probes.push({ scope, ok: true });
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      probes.push({ scope, ok: false, reason: error.code ?? `HTTP ${error.status}` });
    }
  }
  return probes;
}

/** The tier an answer's `X-RateLimit-Limit` names, if it carries one. */
function rateTierOf(headers: Record<string, string>): RateTier | undefined {
  const burst = Number(headers[RATE_LIMIT_HEADERS.limit]);
  if (!Number.isInteger(burst) || burst <= 0) return undefined;
  const tier = (Object.keys(RATE_TIERS) as Array<keyof typeof RATE_TIERS>).find(
    (name) => RATE_TIERS[name].bucket === burst,
  );
  return { burst, perSecond: burst * INITIAL_DRAIN_RATIO, tier };
}

/** What to do about a refused key, by where it came from: the variable, or the profile's login. */
export function refusalAdvice(
  error: ApiError,
  source: Source | undefined,
  profile: string | undefined,
  inCI = false,
): string {
  if (error.code === ERROR_CODES.planNotEligible)
    return "the store's subscription is not live: renew it in the dashboard";
  // Nobody can log in from a CI job, and a key from the environment is the job's secret.
  if (inCI) return JOB_SECRET_ADVICE;
  if (source === 'env')
    return `${JOB_SECRET_ADVICE}; or unset SVC_API_KEY to use ${profile ? `profile "${profile}"` : 'a saved profile'}`;
  return `log in again with \`svc auth login${profile ? ` --profile ${profile}` : ''}\``;
}

function isText(value: string | null | undefined): value is string {
  return typeof value === 'string' && value.trim() !== '';
}
