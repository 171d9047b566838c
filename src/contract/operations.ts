/**
 * The endpoint table: every operation of the API once, as svc and its emulator understand it
 * (method, path, the scope it needs, the write quota it spends, whether repeating it is safe,
 * how it pages, its query, body and answer as zod schemas, and the error codes it answers
 * beyond those every operation of its kind does). The client calls operations from it, the
 * emulator routes by it, the write-quota rule reads it, and docs/openapi.json is generated from it.
 */

import { ACTIVITY_OPERATIONS } from './operations/activity.js';
import { CATALOG_OPERATIONS } from './operations/catalog.js';
import type { ApiOperation } from './operations/operation.js';
import { SERVICE_OPERATIONS } from './operations/service.js';

export type { ApiOperation, Endpoint } from './operations/operation.js';
export { requestLine } from './operations/operation.js';
export { OpenApiDocumentShape } from './operations/service.js';

/** Every operation by its operationId, grouped by what it works on (the order of docs/openapi.json). */
export const OPERATIONS = {
  ...SERVICE_OPERATIONS,
  ...CATALOG_OPERATIONS,
  ...ACTIVITY_OPERATIONS,
};

/** The operationId of an operation of the table. */
export type OperationId = keyof typeof OPERATIONS;

/** Every operation, in the order of docs/openapi.json. */
export const API_OPERATIONS: readonly ApiOperation[] = Object.values(OPERATIONS);
