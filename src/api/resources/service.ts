/** The unauthenticated endpoints: public status page data and the liveness probe. */
import type { ApiClient } from '../client.js';
import { Health, Status } from '../schemas/status.js';

/** GET /status (no key needed). */
export async function getStatus(client: ApiClient): Promise<Status> {
  return (await client.request({ method: 'GET', path: '/status', auth: false }, Status)).body;
}

/** GET /health (no key needed). */
export async function getHealth(client: ApiClient): Promise<Health> {
  return (await client.request({ method: 'GET', path: '/health', auth: false }, Health)).body;
}
