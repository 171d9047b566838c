import type { Command } from 'commander';
import { keyMode, maskKey } from '../../api/contract.js';
import { type Context, requireKey } from '../../cli/context.js';
import type { Credentials } from '../../config/credentials.js';
import type { KeyInspection } from '../../core/auth/check-key.js';
import { type ApiError, AuthError } from '../../errors.js';

const SOURCE_NAMES = { flag: 'flag', env: 'environment', profile: 'profile', none: 'not set' } as const;
const STORAGE_NAMES = { keyring: 'the OS keyring', file: 'the config file' } as const;

/** `svc auth status`: which key and base URL are in force, where each came from, and what the service says of the key. */
export function statusCommand(parent: Command, ctx: Context): void {
  parent
    .command('status')
    .description(
      'check the key with the service: store, mode, rate-limit tier, read scopes, and where key and URL came from',
    )
    .addHelpText(
      'after',
      '\nMakes one cheap read, then one per read scope; write scopes are not probed (only a write could tell).\nExits 4 when the service refuses the key.\n\nExamples:\n  svc auth status\n  svc auth status --json\n',
    )
    .action(async () => runStatus(ctx));
}

/** The settings in force, what the service says of the key, printed; exit 4 when it refuses it. */
async function runStatus(ctx: Context): Promise<void> {
  const credentials = await ctx.credentials();
  const settings = settingsOf(credentials);
  if (!credentials.apiKey) {
    await print(ctx, credentials, { ...settings, verified: false });
    // Names what is missing: no key at all, or a keyring that did not give it.
    requireKey(credentials);
  }
  const { inspectKey, refusalAdvice } = await import('../../core/auth/check-key.js');
  let inspection: KeyInspection;
  try {
    inspection = await inspectKey(await ctx.client());
  } catch (error) {
    await print(ctx, credentials, { ...settings, verified: false });
    throw error;
  }
  if (!inspection.accepted) {
    const { status, code, message } = inspection.error;
    await print(ctx, credentials, { ...settings, verified: false, refused: { status, code, message } });
    throw refusal(credentials, inspection.error, refusalAdvice);
  }
  const { stores, rateTier, scopes, note } = inspection;
  await print(ctx, credentials, {
    ...settings,
    verified: true,
    store: stores ?? null,
    rate_limit: rateTier
      ? { burst: rateTier.burst, per_second: rateTier.perSecond, tier: rateTier.tier ?? null }
      : null,
    read_scopes: Object.fromEntries(scopes.map((probe) => [probe.scope, probe.ok ? 'ok' : probe.reason])),
    write_scopes: 'not probed',
    ...(note ? { note } : {}),
  });
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

async function print(ctx: Context, credentials: Credentials, status: Record<string, unknown>): Promise<void> {
  await ctx.printer.item(status, { summary: () => summaryOf(credentials, status) });
}

/** The status for people: one labelled line per fact. */
function summaryOf(credentials: Credentials, status: Record<string, unknown>): string {
  const { apiKey, baseUrl, profileName } = credentials;
  const from = (source: keyof typeof SOURCE_NAMES, variable: string) =>
    source === 'env' ? variable : SOURCE_NAMES[source];
  const storage = credentials.apiKeyStorage ? `, stored in ${STORAGE_NAMES[credentials.apiKeyStorage]}` : '';
  const lines: Array<[string, string]> = [
    [
      'profile',
      `${profileName ?? '(none)'}${profileName ? ` (from ${SOURCE_NAMES[credentials.profileSource]})` : ''}`,
    ],
    [
      'key',
      `${status.key ?? '(none)'}${apiKey ? ` (${status.mode} mode, from ${from(credentials.apiKeySource, 'SVC_API_KEY')}${storage})` : credentials.keyProblem ? ` (in the OS keyring, but ${credentials.keyProblem})` : ''}`,
    ],
    [
      'base URL',
      `${baseUrl ?? '(none)'}${baseUrl ? ` (from ${from(credentials.baseUrlSource, 'SVC_BASE_URL')})` : ''}`,
    ],
  ];
  if (status.verified) {
    const stores = status.store as string[] | null;
    const tier = status.rate_limit as { burst: number; per_second: number; tier: string | null } | null;
    const scopes = Object.entries(status.read_scopes as Record<string, string>);
    lines.push(
      ['store', stores?.length ? stores.join(', ') : '(unknown)'],
      [
        'rate limit',
        tier
          ? `burst ${tier.burst}, ${tier.per_second} requests/s${tier.tier ? ` (${tier.tier} tier)` : ''}`
          : '(no rate-limit headers)',
      ],
      ['read scopes', scopes.map(([scope, state]) => `${scope} ${state}`).join(', ')],
      ['write scopes', 'not probed: only a write could tell, and it would change the store'],
    );
    if (status.note) lines.push(['note', String(status.note)]);
  }
  return lines.map(([label, text]) => `${label.padEnd(13)}${text}`).join('\n');
}
