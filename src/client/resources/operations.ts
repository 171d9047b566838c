/** Asynchronous operations: how a write propagated to each channel. */

import { ENDPOINTS } from '../../contract/endpoints.js';
import type { Operation } from '../../contract/schemas/operation.js';
import type { ApiClient } from '../client.js';
import type { PagedList } from '../paginate.js';

/** Filters of the operation list. */
export interface OperationFilters {
  status?: string;
  created_after?: string;
}

/** The operations, paged (created_at descending). */
export function listOperations(
  client: ApiClient,
  filters: OperationFilters,
  limit: number | 'all',
  signal?: AbortSignal,
): PagedList<Operation> {
  return client.call(ENDPOINTS.listOperations, { query: filters, limit, signal });
}

/** One operation. */
export function getOperation(client: ApiClient, id: string): Promise<Operation> {
  return client.call(ENDPOINTS.getOperation, { id });
}
