import type { Command } from 'commander';
import { keyMode, maskKey } from '../../api/contract.js';
import type { Context } from '../../cmdutil/context.js';
import { fromArray, printList } from '../../cmdutil/list-command.js';

/** One row of `svc profiles list`. */
interface ProfileRow {
  name: string;
  current: boolean;
  base_url: string;
  key: string;
  mode: string;
}

/** `svc profiles list`. */
export function listCommand(parent: Command, ctx: Context): void {
  parent
    .command('list')
    .description('list saved profiles; * marks the current one')
    .addHelpText('after', '\nExample:\n  svc profiles list\n')
    .action(async () => {
      const config = await ctx.config();
      const rows: ProfileRow[] = Object.entries(config.profiles).map(([name, profile]) => ({
        name,
        current: name === config.currentProfile,
        base_url: profile.base_url ?? '',
        key: profile.api_key ? maskKey(profile.api_key) : '',
        mode: profile.api_key ? (keyMode(profile.api_key) ?? 'malformed') : '',
      }));
      await printList(
        ctx,
        fromArray(rows),
        {
          columns: [
            { header: '', cell: (r) => (r.current ? '*' : '') },
            { header: 'NAME', cell: (r) => r.name },
            { header: 'BASE URL', cell: (r) => r.base_url },
            { header: 'KEY', cell: (r) => r.key },
            { header: 'MODE', cell: (r) => r.mode },
          ],
          fields: ['name', 'current', 'base_url', 'key', 'mode'],
        },
        'profiles',
      );
    });
}
