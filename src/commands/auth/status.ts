import type { Command } from 'commander';
import { keyMode, maskKey } from '../../api/contract.js';
import type { Context } from '../../cmdutil/context.js';
import { AuthError } from '../../errors.js';

const SOURCE_NAMES = { flag: 'flag', env: 'environment', profile: 'profile', none: 'not set' } as const;

/** `svc auth status`: which key and base URL are in force, and where each came from. */
export function statusCommand(parent: Command, ctx: Context): void {
  parent
    .command('status')
    .description('show the key (masked), its mode and base URL in use, and where each came from')
    .addHelpText('after', '\nExamples:\n  svc auth status\n  svc auth status --json\n')
    .action(async () => {
      const credentials = await ctx.credentials();
      const { apiKey, baseUrl, profileName } = credentials;
      const status = {
        profile: profileName ?? null,
        profile_source: credentials.profileSource,
        key: apiKey ? maskKey(apiKey) : null,
        key_source: credentials.apiKeySource === 'env' ? 'SVC_API_KEY' : credentials.apiKeySource,
        mode: apiKey ? (keyMode(apiKey) ?? 'malformed') : null,
        base_url: baseUrl ?? null,
        base_url_source: credentials.baseUrlSource === 'env' ? 'SVC_BASE_URL' : credentials.baseUrlSource,
      };
      await ctx.printer.item(status, {
        summary: () =>
          [
            `profile    ${profileName ?? '(none)'}${profileName ? ` (from ${SOURCE_NAMES[credentials.profileSource]})` : ''}`,
            `key        ${status.key ?? '(none)'}${apiKey ? ` (${status.mode} mode, from ${credentials.apiKeySource === 'env' ? 'SVC_API_KEY' : SOURCE_NAMES[credentials.apiKeySource]})` : ''}`,
            `base URL   ${baseUrl ?? '(none)'}${baseUrl ? ` (from ${credentials.baseUrlSource === 'env' ? 'SVC_BASE_URL' : SOURCE_NAMES[credentials.baseUrlSource]})` : ''}`,
          ].join('\n'),
      });
      if (!apiKey) throw new AuthError('not logged in: run `svc auth login`, or set SVC_API_KEY');
    });
}
