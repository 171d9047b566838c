import { defineCommand } from '../../cmdutil/define.js';
import { operationFields } from '../../cmdutil/fields/operations.js';
import { followOne, timeoutFlag } from '../../cmdutil/follow.js';
import { idArg } from '../../cmdutil/resource-commands.js';
import { endOfFollow, operationFailure } from '../../core/operations/follow.js';
import { operationText } from '../../output/views/operations.js';

/** `svc operations wait ID [--timeout S]`. */
export const command = defineCommand<{ id: string; timeout: number }>({
  path: ['operations', 'wait'],
  rank: 3,
  description: 'wait until an operation ends, then show its per-channel results',
  args: [idArg('operation', 'svc operations list')],
  flags: [timeoutFlag('give up after S seconds, then exit 8')],
  fields: operationFields,
  notes: [
    'Exit codes: 0 succeeded; 3 partial or failed (the results say where); 8 still pending at',
    'the timeout (run the command again to keep waiting).',
  ],
  examples: ['svc operations wait op_123', 'svc operations wait op_123 --timeout 30 --json'],
  /** Waits for one operation, prints it with its per-channel results, and ends as the wait did (exit 3 or 8). */
  async run({ id, timeout }, deps) {
    const followed = await followOne(deps, await deps.client(), id, timeout);
    const [operation] = followed.operations;
    await deps.io.printer.item(operation, { summary: (item) => operationText(item) });
    endOfFollow(followed, operationFailure(followed));
  },
});
