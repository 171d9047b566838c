import { defineCommand } from '../../cmdutil/define.js';
import { fixedFields } from '../../cmdutil/fields.js';
import { fromArray, printList } from '../../cmdutil/list-command.js';
import { type Profile, storageOf } from '../../config/credentials.js';
import { keyMode, maskKey } from '../../contract/contract.js';

/** One row of `svc profiles list`. */
interface ProfileRow {
  name: string;
  current: boolean;
  /** Shop names of the store's channel accounts, seen at login (kept for scripts that read them). */
  store: string[];
  /** The store's channel accounts by label, seen at login. */
  accounts: string[];
  base_url: string;
  key: string;
  mode: string;
  /** `keyring`, `file`, or empty without a key. */
  key_storage: string;
}

/** `svc profiles list`: never reads the keyring (the masked key was kept at login). */
export const command = defineCommand<Record<string, never>>({
  path: ['profiles', 'list'],
  rank: 1,
  description:
    'list saved profiles with their channel accounts, URL, masked key and where the key is kept; * marks the current one',
  fields: fixedFields(['name', 'current', 'base_url', 'key', 'mode']),
  examples: ['svc profiles list'],
  async run(_args, deps) {
    const config = await deps.config();
    const rows = Object.entries(config.profiles).map(([name, profile]) =>
      rowOf(name, profile, name === config.currentProfile),
    );
    await printList(
      deps,
      fromArray(rows),
      {
        columns: [
          { header: '', cell: (r) => (r.current ? '*' : '') },
          { header: 'NAME', cell: (r) => r.name },
          { header: 'ACCOUNTS', cell: (r) => r.accounts.join(', ') },
          { header: 'BASE URL', cell: (r) => r.base_url },
          { header: 'KEY', cell: (r) => r.key },
          { header: 'MODE', cell: (r) => r.mode },
          { header: 'STORED IN', cell: (r) => r.key_storage },
        ],
        fields: ['name', 'current', 'accounts', 'store', 'base_url', 'key', 'mode', 'key_storage'],
      },
      'profiles',
    );
  },
});

function rowOf(name: string, profile: Profile, current: boolean): ProfileRow {
  const key = profile.api_key ? maskKey(profile.api_key) : (profile.key_hint ?? '');
  const storage = storageOf(profile);
  return {
    name,
    current,
    store: profile.stores ?? [],
    // Profiles saved before labels were kept show their shop names until the next login.
    accounts: profile.accounts ?? profile.stores ?? [],
    base_url: profile.base_url ?? '',
    key: storage ? key : '',
    mode: storage ? (keyMode(profile.api_key ?? '') ?? modeOfHint(key)) : '',
    key_storage: storage ?? '',
  };
}

/** The mode a masked key shows (`svc_live_…1234`). */
function modeOfHint(hint: string): string {
  return /^svc_(live|test)_/.exec(hint)?.[1] ?? 'malformed';
}
