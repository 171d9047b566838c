import type { ApiClient } from '../../client/client.js';
import { defineCommand } from '../../cmdutil/define.js';
import type { Deps } from '../../cmdutil/deps.js';
import type { Credentials } from '../../config/credentials.js';
import { requireKey } from '../../config/credentials.js';
import { keyMode, maskKey } from '../../contract/contract.js';
import { keyFromEnvironment } from '../../core/auth/advice.js';
import { inspectKey, type KeyInspection, refusalAdvice } from '../../core/auth/check-key.js';
import { quotaJson } from '../../core/quota/spent.js';
import { type ApiError, AuthError } from '../../errors.js';
import { authStatusText } from '../../output/views/auth-status.js';

/** `svc auth status`: which key and base URL are in force, where each came from, and what the service says of the key. */
export const command = defineCommand<Record<string, never>>({
  path: ['auth', 'status'],
  rank: 2,
  description:
    'check the key with the service: channel accounts, mode, rate-limit tier, read scopes, and where key and URL came from',
  notes: [
    'Makes one cheap read, then one per read scope; write scopes are not probed (only a write could tell).',
    'Exits 4 when the service refuses the key.',
  ],
  examples: ['svc auth status', 'svc auth status --json'],
  /** The settings in force, what the service says of the key, printed; exit 4 when it refuses it. */
  async run(_args, deps) {
    const credentials = await deps.credentials();
    const settings = settingsOf(credentials);
    if (!credentials.apiKey) {
      await print(deps, credentials, { ...settings, verified: false });
      // Names what is missing: no key at all, or a keyring that did not give it.
      requireKey(credentials);
    }
    const client = await deps.client();
    let inspection: KeyInspection;
    try {
      inspection = await inspectKey(client);
    } catch (error) {
      await print(deps, credentials, { ...settings, verified: false });
      throw error;
    }
    if (!inspection.accepted) {
      const { status, code, message } = inspection.error;
      await print(deps, credentials, { ...settings, verified: false, refused: { status, code, message } });
      throw refusal(credentials, inspection.error, (error, source, profile) =>
        refusalAdvice(error, source, profile, keyFromEnvironment(deps.env)),
      );
    }
    const { stores, accounts, rateTier, scopes, note } = inspection;
    await print(deps, credentials, {
      ...settings,
      verified: true,
      // The shop names, kept for scripts that read them; people see the accounts by label.
      store: stores ?? null,
      channel_accounts: accounts ?? null,
      rate_limit: rateTier
        ? { burst: rateTier.burst, per_second: rateTier.perSecond, tier: rateTier.tier ?? null }
        : null,
      read_scopes: Object.fromEntries(scopes.map((probe) => [probe.scope, probe.ok ? 'ok' : probe.reason])),
      write_scopes: 'not probed',
      write_quota: await writeQuota(client),
      ...(note ? { note } : {}),
    });
  },
});

/** svc's count of the daily write quota it spent today on the key, as JSON (null when it keeps none). */
async function writeQuota(client: ApiClient): Promise<Record<string, unknown> | null> {
  const reading = await client.quotaSpent();
  if (!reading) return null;
  return quotaJson(reading);
}

/** Where each setting came from; the key masked. */
function settingsOf(credentials: Credentials): Record<string, unknown> {
  const { apiKey, baseUrl, profileName } = credentials;
  return {
    profile: profileName ?? null,
    profile_source: credentials.profileSource,
    key: apiKey ? maskKey(apiKey) : null,
    key_source: credentials.apiKeySource === 'env' ? 'SVC_API_KEY' : credentials.apiKeySource,
    key_storage: credentials.apiKeyStorage ?? null,
    mode: apiKey ? (keyMode(apiKey) ?? 'malformed') : null,
    base_url: baseUrl ?? null,
    base_url_source: credentials.baseUrlSource === 'env' ? 'SVC_BASE_URL' : credentials.baseUrlSource,
  };
}

/** The refusal, with advice that fits where the key came from. */
function refusal(
  credentials: Credentials,
  error: ApiError,
  advice: typeof import('../../core/auth/check-key.js').refusalAdvice,
): AuthError {
  const reason = `HTTP ${error.status}${error.code ? ` ${error.code}` : ''}: ${error.message.replace(/\.$/, '')}`;
  const { apiKeySource, profileName } = credentials;
  const whose = apiKeySource === 'env' ? 'the key from SVC_API_KEY' : `the key of profile "${profileName}"`;
  return new AuthError(
    `the service refused ${whose} (${reason}); ${advice(error, apiKeySource, profileName)}`,
    error.code,
  );
}

async function print(
  { io }: Pick<Deps, 'io'>,
  credentials: Credentials,
  status: Record<string, unknown>,
): Promise<void> {
  await io.printer.item(status, { summary: () => authStatusText(credentials, status) });
}
