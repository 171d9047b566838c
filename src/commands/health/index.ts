import type { Command } from 'commander';
import type { Context } from '../../cmdutil/context.js';

/** `svc health`: the liveness probe; needs no key. */
export function registerHealth(program: Command, ctx: Context): void {
  program
    .command('health')
    .description('check that the API and its database answer (no key needed)')
    .addHelpText('after', '\nExamples:\n  svc health\n  svc health --json\n')
    .action(async () => {
      const { getHealth } = await import('../../client/resources/service.js');
      const health = await getHealth(await ctx.client({ auth: false }));
      await ctx.io.printer.item(health, { summary: (h) => `${h.status}${h.time ? ` at ${h.time}` : ''}` });
    });
}
