/** GET /operations and GET /operations/{id}; a test key also sees its own simulated ones. */

import type { OperationRecord } from '../../model.js';
import type { Store } from '../../store/store.js';
import { notFound } from '../errors.js';
import { paginate, parsePage, parseTimeParam, stringParam } from '../pagination.js';
import type { EmulatorRequest, Handler } from '../router.js';

function* visibleOperations(store: Store, request: EmulatorRequest): Iterable<OperationRecord> {
  yield* store.operations.values();
  if (request.key?.mode === 'test') yield* store.testOperations.values();
}

/** GET /operations: status, created_after; created_at descending. */
export const listOperations: Handler = (store, request) => {
  const page = parsePage(request.query);
  const status = stringParam(request.query, 'status');
  const createdAfter = parseTimeParam(request.query, 'created_after');
  const envelope = paginate(
    visibleOperations(store, request),
    { key: (operation) => operation.created_at, direction: 'desc' },
    page,
    (operation) =>
      (status === undefined || operation.status === status) &&
      (createdAfter === undefined || operation.created_at >= createdAfter),
  );
  return { status: 200, body: envelope };
};

/** GET /operations/{id}. */
export const getOperation: Handler = (store, request) => {
  const { id } = request.params;
  const operation =
    store.operations.get(id) ?? (request.key?.mode === 'test' ? store.testOperations.get(id) : undefined);
  if (!operation) throw notFound(`No such operation: ${id}.`, 'id');
  return { status: 200, body: operation };
};
