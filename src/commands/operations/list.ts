import { defineCommand } from '../../cmdutil/define.js';
import { printList } from '../../cmdutil/list-command.js';
import { TIME_HELP, timeParser } from '../../cmdutil/parse.js';
import { operationsView } from '../../output/views/operations.js';
import { operationFields } from './fields.js';

/** `svc operations list`: newest first. */
export const command = defineCommand<{ status?: string; createdAfter?: string }>({
  path: ['operations', 'list'],
  rank: 1,
  description: 'list operations, newest first',
  flags: [
    { flags: '--status <status>', description: 'pending, processing, succeeded, partial, failed' },
    {
      flags: '--created-after <time>',
      description: TIME_HELP,
      parse: timeParser('--created-after'),
    },
  ],
  takes: { list: true },
  fields: operationFields,
  examples: ['svc operations list --status failed', 'svc operations list --created-after 1h --all'],
  async run(options, deps) {
    const { listOperations } = await import('../../client/resources/operations.js');
    const { checkStatus } = await import('../../cmdutil/filter-check.js');
    const status = checkStatus('operations', options.status, { path: '/operations', param: 'status' });
    const filters = { status, created_after: options.createdAfter };
    const operations = listOperations(await deps.client(), filters, deps.io.listLimit);
    await printList(deps, operations, operationsView, 'operations');
  },
});
