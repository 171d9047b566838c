import { defineCommand } from '../../cmdutil/define.js';
import { fixedFields } from '../../cmdutil/fields.js';

/** `svc version`: the version, as `--version` prints it, with what a bug report needs beside it. */
export const command = defineCommand<Record<string, never>>({
  path: ['version'],
  group: 'Setup',
  rank: 6,
  description: 'print the version of svc, Node.js and the platform',
  takes: { offline: true },
  fields: fixedFields(['version', 'node', 'platform']),
  examples: ['svc version', 'svc version --json'],
  async run(_args, { io }) {
    const info = {
      version: __SVC_VERSION__,
      node: process.version,
      platform: `${process.platform}-${process.arch}`,
    };
    // A line for people (and `svc version | head -1`), unless a format was asked for.
    if (!io.machineFormatChosen && !io.query) {
      await io.printer.text(`svc ${info.version} (Node.js ${info.node}, ${info.platform})`);
    } else await io.printer.item(info);
  },
});
