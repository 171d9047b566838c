/** GET /operations and GET /operations/{id}; a test key also sees its own simulated ones. */
import type { OperationRecord } from '../../model.js';
import { mergeLists, takePage } from '../../store/sorted-index.js';
import type { Store } from '../../store/store.js';
import { notFound } from '../errors.js';
import {
  envelope,
  olderThan,
  type PageRequest,
  parsePage,
  parseTimeParam,
  stringParam,
} from '../pagination.js';
import type { EmulatorRequest, Handler } from '../router.js';

/** The operations a key sees, in list order after the cursor: a test key's simulated ones too. */
function visibleOperations(
  store: Store,
  request: EmulatorRequest,
  page: PageRequest,
  status: string | undefined,
): Iterable<OperationRecord> {
  const where = [['status', status]] as const;
  const live = store.operations.scan(page.after, where);
  if (request.key?.mode !== 'test') return live;
  const { key, direction } = store.operations.spec;
  return mergeLists(live, store.testOperations.scan(page.after, where), key, direction);
}

/** GET /operations: status, created_after; created_at descending. */
export const listOperations: Handler = (store, request) => {
  const page = parsePage(request);
  const status = stringParam(request.query, 'status');
  const createdAfter = parseTimeParam(request.query, 'created_after');
  const found = takePage(visibleOperations(store, request, page, status), page.limit, {
    filter: (operation: OperationRecord) => status === undefined || operation.status === status,
    stop: olderThan(createdAfter, (operation: OperationRecord) => operation.created_at),
  });
  return { status: 200, body: envelope(found, store.operations.spec.key, page.scope) };
};

/** GET /operations/{id}. */
export const getOperation: Handler = (store, request) => {
  const { id } = request.params;
  const operation =
    store.operations.get(id) ?? (request.key?.mode === 'test' ? store.testOperations.get(id) : undefined);
  if (!operation) throw notFound(`No such operation: ${id}.`, 'id');
  return { status: 200, body: operation };
};
