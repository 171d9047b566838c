import type { Command } from 'commander';
import type { Context } from '../../cmdutil/context.js';
import { DEFAULT_WAIT_SECONDS } from '../../cmdutil/follow.js';
import { integerFlag } from '../../cmdutil/parse.js';

/** Flags of `svc operations wait`. */
export interface WaitOptions {
  timeout: number;
}

/** `svc operations wait ID [--timeout S]`. */
export function waitCommand(parent: Command, ctx: Context, run = runWait): Command {
  return parent
    .command('wait')
    .description('wait until an operation ends, then show its per-channel results')
    .argument('<id>', 'operation id (op_…)')
    .option(
      '--timeout <s>',
      `give up after S seconds (default ${DEFAULT_WAIT_SECONDS})`,
      integerFlag('--timeout', 0),
      DEFAULT_WAIT_SECONDS,
    )
    .addHelpText(
      'after',
      [
        '',
        'Exit codes: 0 succeeded; 3 partial or failed (the results say where); 8 still pending at',
        'the timeout (run the command again to keep waiting).',
        '',
        'Examples:',
        '  svc operations wait op_123',
        '  svc operations wait op_123 --timeout 30 --json',
      ].join('\n'),
    )
    .action(async (id: string, options: WaitOptions) => run(ctx, id, options));
}

/** Waits for one operation, prints it with its per-channel results, and ends as the wait did (exit 3 or 8). */
export async function runWait(ctx: Context, id: string, options: WaitOptions): Promise<void> {
  const { followOne } = await import('../../cmdutil/follow.js');
  const { endOfFollow, operationFailure } = await import('../../core/operations/follow.js');
  const { operationText } = await import('../../output/views/operations.js');
  const followed = await followOne(ctx, await ctx.client(), id, options.timeout);
  const [operation] = followed.operations;
  await ctx.printer.item(operation, { summary: (item) => operationText(item) });
  endOfFollow(followed, operationFailure(followed));
}
