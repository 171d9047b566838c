import { defineCommand } from '../../cmdutil/define.js';
import { UsageError } from '../../errors.js';

/** What `svc __complete` can list for the completion scripts. */
const DYNAMIC = ['profiles'] as const;

/** `svc __complete profiles` (hidden): what the completion scripts ask for at TAB time. */
export const command = defineCommand<{ what: (typeof DYNAMIC)[number] }>({
  path: ['__complete'],
  group: 'Setup',
  rank: 10,
  hidden: true,
  description: 'print candidates for the completion scripts, one a line',
  args: [{ name: 'what', description: '', choices: DYNAMIC }],
  takes: { output: 'none', offline: true },
  examples: [],
  async run({ what }, deps) {
    if (what !== 'profiles') throw new UsageError(`nothing to complete for "${what}"`);
    for (const name of Object.keys((await deps.config()).profiles)) await deps.io.printer.text(name);
  },
});
