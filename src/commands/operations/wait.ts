import type { Command } from 'commander';
import type { ApiClient } from '../../api/client.js';
import type { Operation } from '../../api/schemas/operation.js';
import type { Context } from '../../cli/context.js';
import { integerFlag } from '../../cli/parse.js';
import type { WaitResult } from '../../core/operations/wait.js';
import { PartialFailure, StillPending } from '../../errors.js';

/** Default of --timeout, in seconds (README, Exit codes). */
export const DEFAULT_WAIT_SECONDS = 300;

/** `svc operations wait ID [--timeout S]`. */
export function waitCommand(parent: Command, ctx: Context): void {
  parent
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
    .action(async (id: string, options: { timeout: number }) => {
      await followOperation(ctx, await ctx.client(), id, options.timeout);
    });
}

/**
 * Waits for one operation, prints it with its per-channel results, and ends the run
 * (README, Exit codes): PartialFailure (exit 3) for `partial` or `failed`, StillPending
 * (exit 8) at the timeout.
 */
export async function followOperation(
  ctx: Context,
  client: ApiClient,
  id: string,
  timeoutSeconds: number,
): Promise<Operation> {
  const result = await awaitOperation(ctx, client, id, timeoutSeconds);
  const operation = result.operations[0];
  await ctx.printer.item(operation, { summary: (item) => operationText(item) });
  endOfWait(result, timeoutSeconds);
  return operation;
}

/** Polls one operation until it ends or the time runs out; notes status changes on a terminal. */
export async function awaitOperation(
  ctx: Context,
  client: ApiClient,
  id: string,
  timeoutSeconds: number,
): Promise<WaitResult> {
  const { waitForOperations } = await import('../../core/operations/wait.js');
  let lastStatus = '';
  return waitForOperations(client, [id], {
    timeoutMs: timeoutSeconds * 1000,
    signal: ctx.signal,
    onProgress: ({ operations }) => {
      const status = operations[0]?.status ?? '';
      if (status !== lastStatus && ctx.io.stderrIsTTY) ctx.messages.info(`${id}: ${status}`);
      lastStatus = status;
    },
  });
}

/** Throws as the wait ended: StillPending (exit 8) at the timeout, PartialFailure (exit 3) for a failure. */
export function endOfWait(result: WaitResult, timeoutSeconds: number): void {
  const operation = result.operations[0];
  if (!operation) return;
  const { id } = operation;
  if (result.pending.length > 0) {
    throw new StillPending(
      `${id} is still ${operation.status} after ${timeoutSeconds} s; run \`svc operations wait ${id}\` again to keep waiting`,
    );
  }
  if (result.failed.length > 0) {
    const failed = (operation.results ?? []).filter((item) => item.status === 'failed').length;
    throw new PartialFailure(
      `${id} ended ${operation.status}: ${failed} of ${operation.results?.length ?? 0} channel results failed`,
    );
  }
}

/** "op_1 listing.update on list_2: failed" and one line per channel result. */
export function operationText(operation: Operation): string {
  const what = [operation.type, operation.resource_id ? `on ${operation.resource_id}` : '']
    .filter(Boolean)
    .join(' ');
  const head = `${operation.id}${what ? ` ${what}` : ''}: ${operation.status}${operation.completed_at ? ` (completed ${operation.completed_at})` : ''}`;
  const results = operation.results ?? [];
  if (results.length === 0) return `${head}\n  no channel results (nothing listed to propagate to)`;
  const lines = results.map((item) => {
    const target = [item.channel_account_id, item.listing_id, item.sku].filter(Boolean).join(' ');
    const error = item.error ? ` ${item.error.code}: ${item.error.message ?? ''}`.trimEnd() : '';
    return `  ${target.padEnd(40)} ${item.status}${error}`;
  });
  return [head, ...lines].join('\n');
}
