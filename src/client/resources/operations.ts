/** Asynchronous operations: how a write propagated to each channel. */

import { Operation } from '../../contract/schemas/operation.js';
import type { ApiClient } from '../client.js';
import type { PagedList } from '../paginate.js';
import { itemPath } from './paths.js';

/** Filters of GET /operations. */
export interface OperationFilters {
  status?: string;
  created_after?: string;
}

/** GET /operations, paged (created_at descending). */
export function listOperations(
  client: ApiClient,
  filters: OperationFilters,
  limit: number | 'all',
): PagedList<Operation> {
  return client.list('/operations', { ...filters }, Operation, { limit });
}

/** GET /operations/{id}. */
export async function getOperation(client: ApiClient, id: string): Promise<Operation> {
  return (await client.request({ method: 'GET', path: itemPath('/operations', id) }, Operation)).body;
}
