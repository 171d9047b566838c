import type { Command } from 'commander';
import { keyMode, maskKey } from '../../api/contract.js';
import type { Context } from '../../cli/context.js';
import { ApiError, AuthError, UsageError } from '../../errors.js';

/** Flags of `svc auth login` (besides the global --profile and --base-url). */
export interface LoginOptions {
  withKeyStdin?: boolean;
}

const DEFAULT_PROFILE = 'default';

/** `svc auth login`: prompts on a terminal, reads the key from stdin in CI. */
export function loginCommand(parent: Command, ctx: Context): void {
  parent
    .command('login')
    .description('save an API key and base URL as a profile, after checking the key with the service')
    .option('--with-key-stdin', 'read the key from standard input (for CI; keys are never taken from a flag)')
    .addHelpText(
      'after',
      [
        '',
        'The profile is --profile (default "default"); the base URL is --base-url or SVC_BASE_URL.',
        '',
        'Examples:',
        '  svc auth login',
        '  echo "$SVC_KEY" | svc auth login --with-key-stdin --base-url https://api.example.com --profile ci',
      ].join('\n'),
    )
    .action(async (options: LoginOptions) => runLogin(ctx, options));
}

/** Asks for or reads the key, verifies it, saves the profile and makes it current. */
export async function runLogin(ctx: Context, options: LoginOptions): Promise<void> {
  const { profile, baseUrl, apiKey } = options.withKeyStdin ? await fromStdin(ctx) : await fromPrompts(ctx);
  const mode = keyMode(apiKey);
  if (!mode) {
    throw new AuthError(
      'that is not an API key: keys look like svc_live_… or svc_test_…; nothing was saved',
      'api_key_invalid',
    );
  }
  const note = await verifyKey(ctx, baseUrl, apiKey);
  const config = await ctx.config();
  config.saveProfile(profile, { base_url: baseUrl, api_key: apiKey });
  config.useProfile(profile);
  ctx.messages.info(
    `Logged in to ${baseUrl} as profile "${profile}" with a ${mode} key (${maskKey(apiKey)})${note}.`,
  );
  if (mode === 'test')
    ctx.messages.info('Test mode: writes are validated and simulated; nothing in the store changes.');
}

/**
 * One real request proves the key: 200, or a 403 for a missing scope, means the service
 * knows it; a 401 means it does not.
 */
async function verifyKey(ctx: Context, baseUrl: string, apiKey: string): Promise<string> {
  const client = await ctx.buildClient(baseUrl, apiKey);
  try {
    await client.request({ method: 'GET', path: '/channel_accounts' });
    return '';
  } catch (error) {
    if (error instanceof ApiError && error.status === 403) {
      return error.code === 'plan_not_eligible'
        ? '; note: the store subscription is not live, so requests will be refused until it is renewed'
        : '; note: this key cannot read the catalog (products:read), which is fine if it is meant for other work';
    }
    if (error instanceof ApiError && error.status === 401) {
      throw new AuthError(
        `the service rejected this key (${error.code ?? 'HTTP 401'}); check it in the dashboard; nothing was saved`,
        error.code,
      );
    }
    throw error;
  } finally {
    await client.close();
  }
}

async function fromStdin(ctx: Context): Promise<{ profile: string; baseUrl: string; apiKey: string }> {
  const baseUrl = ctx.globals.baseUrl ?? ctx.env.SVC_BASE_URL;
  if (!baseUrl)
    throw new UsageError(
      '--with-key-stdin needs the service address: pass --base-url URL or set SVC_BASE_URL',
    );
  validateUrl(baseUrl);
  let text = '';
  for await (const chunk of ctx.io.stdin) text += chunk;
  const apiKey = text.trim();
  if (!apiKey)
    throw new UsageError(
      'no key on standard input; pipe it in, e.g. `echo "$KEY" | svc auth login --with-key-stdin`',
    );
  return { profile: ctx.globals.profile ?? DEFAULT_PROFILE, baseUrl, apiKey };
}

async function fromPrompts(ctx: Context): Promise<{ profile: string; baseUrl: string; apiKey: string }> {
  if (!ctx.canPrompt) {
    throw new UsageError(
      'no terminal to prompt on; pass the key on standard input with --with-key-stdin (and --base-url)',
    );
  }
  const { input, password } = await ctx.prompts();
  const profile =
    ctx.globals.profile ??
    (await input({
      message: 'Profile name',
      default: DEFAULT_PROFILE,
      validate: (v) => v.trim() !== '' || 'a name is needed',
    }));
  const baseUrl =
    ctx.globals.baseUrl ??
    (await input({
      message: 'Service base URL (the part before /rest/v1)',
      default: ctx.env.SVC_BASE_URL ?? 'http://127.0.0.1:4010',
      validate: (v) => isHttpUrl(v) || 'an http(s) URL, e.g. https://api.example.com',
    }));
  validateUrl(baseUrl);
  const apiKey = await password({
    message: 'API key (input hidden)',
    mask: false,
    validate: (v) => Boolean(keyMode(v.trim())) || 'keys look like svc_live_… or svc_test_…',
  });
  return { profile: profile.trim(), baseUrl: baseUrl.trim(), apiKey: apiKey.trim() };
}

function isHttpUrl(value: string): boolean {
  try {
    return ['http:', 'https:'].includes(new URL(value.trim()).protocol);
  } catch {
    return false;
  }
}

function validateUrl(value: string): void {
  if (!isHttpUrl(value))
    throw new UsageError(`base URL "${value}" is not an http(s) URL, e.g. https://api.example.com`);
}
