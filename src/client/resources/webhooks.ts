/** Webhook endpoints: where the service delivers events, each with its own signing secret. */
import { ENDPOINTS } from '../../contract/endpoints.js';
import type {
  DeletedWebhookEndpoint,
  WebhookEndpoint,
  WebhookEndpointInput,
  WebhookEndpointUpdate,
} from '../../contract/schemas/webhook-endpoint.js';
import type { ApiClient } from '../client.js';
import type { PagedList } from '../paginate.js';

/** The webhook endpoints, paged. */
export function listWebhookEndpoints(client: ApiClient, limit: number | 'all'): PagedList<WebhookEndpoint> {
  return client.call(ENDPOINTS.listWebhookEndpoints, { limit });
}

/**
 * Registers a receiver: the answer carries the signing secret, the only time it is shown.
 * Not repeatable: a second endpoint would receive every event twice.
 */
export function createWebhookEndpoint(
  client: ApiClient,
  input: WebhookEndpointInput,
): Promise<WebhookEndpoint> {
  return client.call(ENDPOINTS.createWebhookEndpoint, { body: input });
}

/** Changes an endpoint (absolute fields, so repeating it is safe). */
export function updateWebhookEndpoint(
  client: ApiClient,
  id: string,
  change: WebhookEndpointUpdate,
): Promise<WebhookEndpoint> {
  return client.call(ENDPOINTS.updateWebhookEndpoint, { id, body: change });
}

/** Removes an endpoint. */
export function deleteWebhookEndpoint(client: ApiClient, id: string): Promise<DeletedWebhookEndpoint> {
  return client.call(ENDPOINTS.deleteWebhookEndpoint, { id });
}
