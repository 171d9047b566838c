import { dirname, join } from 'node:path';
import { confirmDestructive } from '../../cmdutil/confirm.js';
import { defineCommand } from '../../cmdutil/define.js';
import type { Deps } from '../../cmdutil/deps.js';
import { ConfigStore, ConfigUnreadable } from '../../config/config-store.js';
import { profileNameProblem } from '../../config/credentials.js';
import { ERROR_CODES, keyMode, maskKey } from '../../contract/contract.js';
import { checkKey } from '../../core/auth/check-key.js';
import { saveLogin } from '../../core/auth/keys.js';
import { AuthError, KEY_MALFORMED, UsageError } from '../../errors.js';
import { countedNames } from '../../words.js';

/** Flags of `svc auth login` (besides the global --profile and --base-url). */
export interface LoginOptions {
  withKeyStdin?: boolean;
  /** Keep the key in the config file (0600) without trying the OS keyring. */
  insecureStorage?: boolean;
  /** Make the profile current even when another one is. */
  use?: boolean;
}

const DEFAULT_PROFILE = 'default';

/** `svc auth login`: prompts on a terminal, reads the key from stdin in CI. */
export const command = defineCommand<LoginOptions>({
  path: ['auth', 'login'],
  rank: 1,
  takes: { confirms: true },
  description: 'save an API key and base URL as a profile, after checking the key with the service',
  flags: [
    {
      flags: '--with-key-stdin',
      description: 'read the key from standard input (for CI; keys are never taken from a flag)',
    },
    {
      flags: '--insecure-storage',
      description: 'keep the key in the config file (mode 0600) instead of the OS keyring',
    },
    { flags: '--use', description: 'make this profile the current one (the first login does so anyway)' },
  ],
  notes: [
    'On a terminal it asks for the key first (masked), then the profile name and the base URL.',
    'The profile is --profile (default "default"), never a name that looks like a key; the base',
    'URL is --base-url or SVC_BASE_URL.',
    'The key goes to the OS keyring (Keychain, Credential Manager, Secret Service) when one',
    'answers, else to the config file, readable only by you; --insecure-storage picks the file.',
  ],
  examples: [
    'svc auth login',
    'echo "$SVC_KEY" | svc auth login --with-key-stdin --base-url https://api.example.com --profile ci',
  ],
  /** Asks for or reads the key, verifies it, stores it and saves the profile. */
  async run(options, deps) {
    const { profile, baseUrl, apiKey } = options.withKeyStdin
      ? await fromStdin(deps)
      : await fromPrompts(deps);
    const mode = keyMode(apiKey);
    if (!mode) {
      throw new AuthError(
        'that is not an API key: keys look like svc_live_… or svc_test_…; nothing was saved',
        KEY_MALFORMED,
      );
    }
    const config = await configForLogin(deps);
    const { stores, accounts, note } = await verifyKey(deps, baseUrl, apiKey);
    const saved = await saveLogin(config, await deps.keyring(), {
      profile,
      baseUrl,
      apiKey,
      stores,
      accounts,
      insecure: Boolean(options.insecureStorage),
      use: Boolean(options.use),
    });
    const file = join(config.dir, 'config.json');
    if (saved.fallbackReason) {
      deps.io.messages.warn(
        `no OS keyring took the key (${saved.fallbackReason}); it is stored in ${file}, readable only by you (mode 0600). --insecure-storage chooses the file without trying the keyring.`,
      );
    }
    if (saved.leftBehind)
      deps.io.messages.warn(`the previous key of profile "${profile}": ${saved.leftBehind}`);
    const where = saved.storage === 'keyring' ? 'stored in the OS keyring' : `stored in ${file} (mode 0600)`;
    const reached = accounts?.length ? ` (${countedNames('channel account', accounts)})` : '';
    deps.io.messages.info(
      `Logged in to ${baseUrl}${reached} as profile "${profile}" with a ${mode} key (${maskKey(apiKey)}), ${where}${note}.`,
    );
    if (saved.switched) deps.io.messages.info(`"${profile}" is now the current profile.`);
    else if (saved.current !== profile) {
      deps.io.messages.info(
        `The current profile is still "${saved.current}"; use this one with --profile ${profile}, or make it current with \`svc profiles use ${profile}\`.`,
      );
    }
    if (mode === 'test')
      deps.io.messages.info('Test mode: writes are validated and simulated; nothing in the store changes.');
  },
});

/**
 * The saved profiles; a config.json that is not JSON (cut short by a full disk) is replaced
 * only once the user agreed: --yes, or yes at a terminal; without either, exit 2 naming it.
 */
async function configForLogin(deps: Pick<Deps, 'config' | 'globals' | 'io' | 'prompts'>) {
  try {
    return await deps.config();
  } catch (error) {
    if (!(error instanceof ConfigUnreadable)) throw error;
    const target = `the unreadable ${error.path}`;
    const question = () => `${error.path} is not valid JSON: replace it, losing its profiles?`;
    if (!(await confirmDestructive(deps, { verb: 'replace', target }, question)))
      throw new UsageError(`login canceled; ${error.path} is unchanged`);
    return ConfigStore.open(dirname(error.path), { replaceUnreadable: true });
  }
}

/**
 * One real request proves the key and names the store: 200, or a 403 for a missing scope,
 * means the service knows it; a 401 means it does not.
 */
async function verifyKey(
  deps: Pick<Deps, 'clientFor'>,
  baseUrl: string,
  apiKey: string,
): Promise<{ stores?: string[]; accounts?: string[]; note: string }> {
  const client = await deps.clientFor(baseUrl, apiKey);
  try {
    const check = await checkKey(client);
    if (check.accepted) {
      const accounts = check.accounts?.map((account) => account.label);
      return { stores: check.stores, accounts, note: check.note ? `; note: ${check.note}` : '' };
    }
    const { error } = check;
    if (error.code === ERROR_CODES.planNotEligible) {
      return {
        note: '; note: the store subscription is not live, so requests will be refused until it is renewed',
      };
    }
    throw new AuthError(
      `the service rejected this key (${error.code ?? 'HTTP 401'}); check it in the dashboard; nothing was saved`,
      error.code,
    );
  } finally {
    await client.close();
  }
}

async function fromStdin(
  deps: Pick<Deps, 'globals' | 'env' | 'io'>,
): Promise<{ profile: string; baseUrl: string; apiKey: string }> {
  const baseUrl = deps.globals.baseUrl ?? deps.env.SVC_BASE_URL;
  if (!baseUrl)
    throw new UsageError(
      '--with-key-stdin needs the service address: pass --base-url URL or set SVC_BASE_URL',
    );
  validateUrl(baseUrl);
  let text = '';
  for await (const chunk of deps.io.stdin) text += chunk;
  const apiKey = text.trim();
  deps.io.boundary.protect(apiKey);
  if (!apiKey)
    throw new UsageError(
      'no key on standard input; pipe it in, e.g. `echo "$KEY" | svc auth login --with-key-stdin`',
    );
  return { profile: deps.globals.profile ?? DEFAULT_PROFILE, baseUrl, apiKey };
}

/**
 * The key first, masked, then the profile name and the service address: a key pasted at the
 * first question lands where it belongs, and a name that looks like a key is refused.
 */
async function fromPrompts(
  deps: Pick<Deps, 'globals' | 'env' | 'io' | 'prompts'>,
): Promise<{ profile: string; baseUrl: string; apiKey: string }> {
  if (!deps.io.canPrompt) {
    throw new UsageError(
      'no terminal to prompt on; pass the key on standard input with --with-key-stdin (and --base-url)',
    );
  }
  const { input, password } = await deps.prompts();
  const apiKey = (
    await password({
      message: 'API key',
      mask: '*',
      validate: (v) => Boolean(keyMode(v.trim())) || 'keys look like svc_live_… or svc_test_…',
    })
  ).trim();
  deps.io.boundary.protect(apiKey);
  const profile =
    deps.globals.profile ??
    (await input({
      message: 'Profile name',
      default: DEFAULT_PROFILE,
      validate: (v) => profileNameProblem(v) ?? true,
      // A refused name is cleared, not left for the next word to be added to.
      theme: { validationFailureMode: 'clear' },
    }));
  const baseUrl =
    deps.globals.baseUrl ??
    (await input({
      message: 'Service base URL (the part before /rest/v1)',
      default: deps.env.SVC_BASE_URL ?? 'http://127.0.0.1:4010',
      validate: (v) => isHttpUrl(v) || 'an http(s) URL, e.g. https://api.example.com',
    }));
  validateUrl(baseUrl);
  return { profile: profile.trim(), baseUrl: baseUrl.trim(), apiKey };
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
