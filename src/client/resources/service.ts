/** The unauthenticated endpoints: public status page data and the liveness probe. */

import { Health, Status } from '../../contract/schemas/status.js';
import type { ApiClient } from '../client.js';

/** GET /status (no key needed). */
export async function getStatus(client: ApiClient): Promise<Status> {
  return (await client.request({ method: 'GET', path: '/status', auth: false }, Status)).body;
}

/** GET /health (no key needed). */
export async function getHealth(client: ApiClient): Promise<Health> {
  return (await client.request({ method: 'GET', path: '/health', auth: false }, Health)).body;
}
