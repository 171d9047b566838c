/** The unauthenticated endpoints: public status page data and the liveness probe. */

import { ENDPOINTS } from '../../contract/endpoints.js';
import type { Health, Status } from '../../contract/schemas/status.js';
import type { ApiClient } from '../client.js';

/** The public status page (no key needed). */
export function getStatus(client: ApiClient): Promise<Status> {
  return client.call(ENDPOINTS.getStatus);
}

/** The liveness probe (no key needed). */
export function getHealth(client: ApiClient): Promise<Health> {
  return client.call(ENDPOINTS.getHealth);
}
