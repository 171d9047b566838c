import { byCreatedAt } from '../../client/merged-list.js';
import { listOperations, type OperationFilters } from '../../client/resources/operations.js';
import { defineCommand } from '../../cmdutil/define.js';
import { operationFields } from '../../cmdutil/fields/operations.js';
import { checkStatuses } from '../../cmdutil/filter-check.js';
import { listEach, printList } from '../../cmdutil/list-command.js';
import { TIME_HELP, timeParser } from '../../cmdutil/parse.js';
import type { Operation } from '../../contract/schemas/operation.js';
import { operationsView } from '../../output/views/operations.js';

/** `svc operations list`: newest first. */
export const command = defineCommand<{ status?: string; createdAfter?: string }>({
  path: ['operations', 'list'],
  rank: 1,
  description: 'list operations, newest first',
  flags: [
    {
      flags: '--status <status>',
      description: 'pending, processing, succeeded, partial, failed; several comma-separated',
    },
    {
      flags: '--created-after <time>',
      description: TIME_HELP,
      parse: timeParser('--created-after'),
    },
  ],
  takes: { list: true },
  fields: operationFields,
  examples: [
    'svc operations list --status failed',
    'svc operations list --status failed,partial --created-after today',
    'svc operations list --created-after 1h --all',
  ],
  async run(options, deps) {
    const statuses = checkStatuses('operations', options.status, {
      operation: 'listOperations',
      param: 'status',
    });
    const client = await deps.client();
    const limit = deps.io.listLimit;
    const operations = await listEach<OperationFilters, Operation>(
      { created_after: options.createdAfter },
      { status: statuses },
      (each) => listOperations(client, each, limit),
      byCreatedAt,
      limit,
    );
    await printList(deps, operations, operationsView, 'operations');
  },
});
