/**
 * Where a profile's key lives: the OS keyring when one answers, else (or with
 * --insecure-storage) the config file, which only its owner can read (0600). The profile
 * records which, so that every later read and delete goes to the same place.
 */
import { resolve } from 'node:path';
import { type KeyStorage, type Profile, storageOf } from './credentials.js';
import { type KeyringBackend, KeyringUnavailable } from './keyring.js';

/** The fields of a profile that say where its key is, ready to save. */
type KeyFields = Pick<Profile, 'api_key' | 'key_storage' | 'keyring_account'>;

/** Where a key went, and why not the keyring when it was tried and failed. */
export interface StoredKey {
  fields: KeyFields;
  storage: KeyStorage;
  /** Set when the keyring was tried and did not take the key. */
  fallbackReason?: string;
}

/** The keyring account of a profile: its name and config dir, so two config dirs never share an entry. */
export function keyringAccount(configDir: string, profileName: string): string {
  return `${profileName}@${resolve(configDir)}`;
}

/**
 * Stores `apiKey` for a profile: in the keyring unless `insecure`, falling back to the file
 * when the keyring does not take it (the caller says so once).
 */
export async function saveKey(
  keyring: KeyringBackend,
  options: { account: string; apiKey: string; insecure: boolean },
): Promise<StoredKey> {
  const inFile: KeyFields = { api_key: options.apiKey, key_storage: 'file' };
  if (options.insecure) return { fields: inFile, storage: 'file' };
  try {
    await keyring.set(options.account, options.apiKey);
    return { fields: { key_storage: 'keyring', keyring_account: options.account }, storage: 'keyring' };
  } catch (error) {
    return { fields: inFile, storage: 'file', fallbackReason: reasonOf(error) };
  }
}

/** A profile's key from wherever it is stored; a keyring that cannot give it is a `problem`. */
export async function readKey(
  keyring: KeyringBackend,
  profile: Profile,
): Promise<{ apiKey?: string; problem?: string }> {
  if (storageOf(profile) !== 'keyring') return { apiKey: profile.api_key };
  try {
    const apiKey = await keyring.get(profile.keyring_account as string);
    return apiKey ? { apiKey } : { problem: 'its key is no longer in the OS keyring' };
  } catch (error) {
    return { problem: `the OS keyring did not give its key (${reasonOf(error)})` };
  }
}

/**
 * Deletes a profile's key from wherever it is stored; the file copy goes when the caller
 * saves the profile without it. Returns what went wrong with the keyring, if anything.
 */
export async function deleteKey(keyring: KeyringBackend, profile: Profile): Promise<string | undefined> {
  if (storageOf(profile) !== 'keyring') return undefined;
  try {
    await keyring.delete(profile.keyring_account as string);
    return undefined;
  } catch (error) {
    return `could not delete its key from the OS keyring (${reasonOf(error)}); remove the "svc" entry for ${profile.keyring_account} with the keyring's own tool`;
  }
}

/** A profile without any of the fields that hold or point at its key. */
export function withoutKey(profile: Profile): Profile {
  const {
    api_key: _key,
    key_storage: _storage,
    keyring_account: _account,
    key_hint: _hint,
    ...rest
  } = profile;
  return rest;
}

function reasonOf(error: unknown): string {
  if (error instanceof KeyringUnavailable) return error.message;
  return error instanceof Error ? error.message : String(error);
}
