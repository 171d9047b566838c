/**
 * Every operation of the API as svc and its emulator understand it: method, path, the scope
 * it needs, whether it counts against the daily write quota, its query, body and answer (zod
 * schemas), and the error codes it answers beyond those every operation of its kind does.
 * The emulator's route table takes method, path, scope and quota from here, and
 * docs/openapi.json is generated from it.
 */

import { ACTIVITY_OPERATIONS } from './operations/activity.js';
import { CATALOG_OPERATIONS } from './operations/catalog.js';
import type { ApiOperation } from './operations/operation.js';
import { SERVICE_OPERATIONS } from './operations/service.js';

export type { ApiOperation } from './operations/operation.js';
export { OpenApiDocumentShape } from './operations/service.js';

/** Every operation, grouped by what it works on (the order of docs/openapi.json). */
export const API_OPERATIONS: readonly ApiOperation[] = [
  ...SERVICE_OPERATIONS,
  ...CATALOG_OPERATIONS,
  ...ACTIVITY_OPERATIONS,
];
