import { defineCommand } from '../../cmdutil/define.js';
import { commandReference } from '../../core/docs/reference.js';

/** `svc __docs` (hidden): what `npm run docs` writes docs/commands/ and man/svc.1 from. */
export const command = defineCommand<Record<string, never>>({
  path: ['__docs'],
  group: 'Setup',
  rank: 11,
  hidden: true,
  description: 'print the command reference (docs/commands/*.md, man/svc.1) as JSON: file path to content',
  takes: { output: 'none', offline: true },
  examples: [],
  async run(_args, deps) {
    await deps.io.printer.text(JSON.stringify(commandReference(await deps.commandTree()), null, 2));
  },
});
