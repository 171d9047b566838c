/** How `svc auth status` shows itself to people: one labelled line per fact. */
import type { Credentials } from '../../config/credentials.js';
import { countedNames } from '../../words.js';

const SOURCE_NAMES = { flag: 'flag', env: 'environment', profile: 'profile', none: 'not set' } as const;
const STORAGE_NAMES = { keyring: 'the OS keyring', file: 'the config file' } as const;

/** The status for people: one labelled line per fact. */
export function authStatusText(credentials: Credentials, status: Record<string, unknown>): string {
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
    const accounts = status.channel_accounts as Array<{ label: string }> | null;
    const tier = status.rate_limit as { burst: number; per_second: number; tier: string | null } | null;
    const scopes = Object.entries(status.read_scopes as Record<string, string>);
    lines.push(
      [
        'accounts',
        accounts?.length
          ? countedNames(
              'channel account',
              accounts.map((account) => account.label),
            )
          : '(unknown)',
      ],
      [
        'rate limit',
        tier
          ? `burst ${tier.burst}, ${tier.per_second} requests/s${tier.tier ? ` (${tier.tier} tier)` : ''}`
          : '(no rate-limit headers)',
      ],
      ['read scopes', scopes.map(([scope, state]) => `${scope} ${state}`).join(', ')],
      ['write scopes', 'not probed: only a write could tell, and it would change the store'],
    );
    const quota = status.write_quota as { spent: number; counted_on: string } | null | undefined;
    if (quota) {
      const units = `${quota.spent.toLocaleString('en-US')} ${quota.spent === 1 ? 'unit' : 'units'}`;
      lines.push(['write quota', `${units} spent today by svc on this key (counted on ${quota.counted_on})`]);
    }
    if (status.note) lines.push(['note', String(status.note)]);
  }
  return lines.map(([label, text]) => `${label.padEnd(13)}${text}`).join('\n');
}
