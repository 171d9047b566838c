import type { Command } from 'commander';
import type { Context } from '../../cmdutil/context.js';

/** `svc version`: the version, as `--version` prints it, with what a bug report needs beside it. */
export function registerVersion(program: Command, ctx: Context): void {
  program
    .command('version')
    .description('print the version of svc, Node.js and the platform')
    .addHelpText('after', '\nExamples:\n  svc version\n  svc version --json\n')
    .action(async () => {
      const info = {
        version: __SVC_VERSION__,
        node: process.version,
        platform: `${process.platform}-${process.arch}`,
      };
      // A line for people (and `svc version | head -1`), unless a format was asked for.
      if (!ctx.io.machineFormatChosen && !ctx.io.query) {
        await ctx.io.printer.text(`svc ${info.version} (Node.js ${info.node}, ${info.platform})`);
      } else await ctx.io.printer.item(info);
    });
}
