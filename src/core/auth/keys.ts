/**
 * Saving and forgetting a profile's key, wherever it lives (the OS keyring or the config
 * file): login, logout and profile removal, with no printing.
 */

import type { ConfigStore } from '../../config/config-store.js';
import { type KeyStorage, storageOf } from '../../config/credentials.js';
import { deleteKey, keyringAccount, saveKey, withoutKey } from '../../config/key-store.js';
import type { KeyringBackend } from '../../config/keyring.js';
import { maskKey } from '../../contract/contract.js';

/** What a login saves. */
export interface LoginInput {
  profile: string;
  baseUrl: string;
  apiKey: string;
  /** The store's shop names, when the key could read them. */
  stores?: string[];
  /** The store's channel accounts by label, when the key could read them. */
  accounts?: string[];
  /** --insecure-storage: the config file, without trying the keyring. */
  insecure: boolean;
  /** --use: make this profile current even when another one is. */
  use: boolean;
}

/** Where the key went and which profile is current afterwards. */
export interface LoginOutcome {
  storage: KeyStorage;
  /** Why the keyring did not take the key, when it was tried. */
  fallbackReason?: string;
  /** The current profile after the login. */
  current: string;
  /** True when this login made the profile current (the first login, or --use). */
  switched: boolean;
  /** A keyring entry of the profile's previous key that could not be deleted. */
  leftBehind?: string;
}

/**
 * Saves a verified key for a profile: in the keyring unless `insecure` or it fails, else the
 * file. The profile becomes current on the first login or with `use`; otherwise the current
 * one stays (a login to a second store must not redirect the next command silently).
 */
export async function saveLogin(
  config: ConfigStore,
  keyring: KeyringBackend,
  input: LoginInput,
): Promise<LoginOutcome> {
  const previous = config.profiles[input.profile];
  const currentBefore = config.currentProfile;
  const account = keyringAccount(config.dir, input.profile);
  const stored = await saveKey(keyring, { account, apiKey: input.apiKey, insecure: input.insecure });
  // An older key the keyring holds for this profile must not linger once the new one lives elsewhere.
  const replacedInKeyring = stored.storage === 'keyring' && previous?.keyring_account === account;
  const leftBehind =
    previous && storageOf(previous) === 'keyring' && !replacedInKeyring
      ? await deleteKey(keyring, previous)
      : undefined;
  await config.saveProfile(input.profile, {
    base_url: input.baseUrl,
    ...stored.fields,
    key_hint: maskKey(input.apiKey),
    ...(input.stores ? { stores: input.stores } : {}),
    ...(input.accounts ? { accounts: input.accounts } : {}),
  });
  if (input.use) await config.useProfile(input.profile);
  const current = config.currentProfile ?? input.profile;
  return {
    storage: stored.storage,
    fallbackReason: stored.fallbackReason,
    current,
    switched: current === input.profile && currentBefore !== input.profile,
    leftBehind,
  };
}

/**
 * Forgets a profile's key wherever it is (the profile itself stays, with its address and
 * store); returns where the key was, and what the keyring would not delete.
 */
export async function forgetKey(
  config: ConfigStore,
  keyring: KeyringBackend,
  name: string,
): Promise<{ storage?: KeyStorage; problem?: string }> {
  const profile = config.profiles[name] ?? {};
  const problem = await deleteKey(keyring, profile);
  await config.saveProfile(name, withoutKey(profile));
  return { storage: storageOf(profile), problem };
}

/** Removes a profile and its key; false when there is no such profile. */
export async function removeProfile(
  config: ConfigStore,
  keyring: KeyringBackend,
  name: string,
): Promise<{ removed: boolean; problem?: string }> {
  const profile = config.profiles[name];
  if (!profile) return { removed: false };
  const problem = await deleteKey(keyring, profile);
  await config.removeProfile(name);
  return { removed: true, problem };
}
