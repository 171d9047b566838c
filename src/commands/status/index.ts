import type { Command } from 'commander';
import type { Context } from '../../cmdutil/context.js';
import { age } from '../../output/time.js';

/** `svc status`: the public status page's data; needs no key. */
export function registerStatus(program: Command, ctx: Context): void {
  program
    .command('status')
    .description('show the service status page data (no key needed)')
    .addHelpText('after', '\nExamples:\n  svc status\n  svc status --json | jq .uptime_24h\n')
    .action(async () => {
      const { getStatus } = await import('../../client/resources/service.js');
      const status = await getStatus(await ctx.client({ auth: false }));
      const { statusHistory } = await import('../../output/status-strip.js');
      const { styledLines } = await import('../../output/escape.js');
      await ctx.io.printer.item(status, {
        summary: (s, now) => {
          const check = s.last_check;
          const history = statusHistory(s.buckets ?? [], ctx.io.columns ?? 80, ctx.io.color);
          return styledLines([
            `state           ${s.state}`,
            `uptime (24h)    ${s.uptime_24h == null ? '' : `${(s.uptime_24h * (s.uptime_24h <= 1 ? 100 : 1)).toFixed(2)}%`}`,
            `avg latency     ${s.avg_latency_ms == null ? '' : `${Math.round(s.avg_latency_ms)} ms`}`,
            `last check      ${check ? `${check.ok ? 'ok' : 'FAILED'}, ${check.latency_ms ?? '?'} ms, ${age(check.time, now)} ago` : ''}`,
            ...history,
          ]);
        },
      });
    });
}
