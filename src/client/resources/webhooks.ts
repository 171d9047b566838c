/** Webhook endpoints: where the service delivers events, each with its own signing secret. */
import { z } from 'zod';
import {
  WebhookEndpoint,
  type WebhookEndpointInput,
  type WebhookEndpointUpdate,
} from '../../contract/schemas/webhook-endpoint.js';
import type { ApiClient } from '../client.js';
import type { PagedList } from '../paginate.js';
import { itemPath } from './paths.js';

/** The answer to a delete. */
export const DeletedWebhookEndpoint = z.looseObject({ id: z.string(), deleted: z.boolean().optional() });
export type DeletedWebhookEndpoint = z.infer<typeof DeletedWebhookEndpoint>;

/** GET /webhook_endpoints, paged. */
export function listWebhookEndpoints(client: ApiClient, limit: number | 'all'): PagedList<WebhookEndpoint> {
  return client.list('/webhook_endpoints', undefined, WebhookEndpoint, { limit });
}

/**
 * POST /webhook_endpoints: the answer carries the signing secret, the only time it is shown.
 * Not repeatable: a second endpoint would receive every event twice.
 */
export async function createWebhookEndpoint(
  client: ApiClient,
  input: WebhookEndpointInput,
): Promise<WebhookEndpoint> {
  return (
    await client.request(
      { method: 'POST', path: '/webhook_endpoints', body: input, repeatable: false },
      WebhookEndpoint,
    )
  ).body;
}

/** PATCH /webhook_endpoints/{id} (absolute fields, so repeating it is safe). */
export async function updateWebhookEndpoint(
  client: ApiClient,
  id: string,
  change: WebhookEndpointUpdate,
): Promise<WebhookEndpoint> {
  return (
    await client.request(
      { method: 'PATCH', path: itemPath('/webhook_endpoints', id), body: change, repeatable: true },
      WebhookEndpoint,
    )
  ).body;
}

/** DELETE /webhook_endpoints/{id}. */
export async function deleteWebhookEndpoint(client: ApiClient, id: string): Promise<DeletedWebhookEndpoint> {
  return (
    await client.request(
      { method: 'DELETE', path: itemPath('/webhook_endpoints', id), repeatable: true },
      DeletedWebhookEndpoint,
    )
  ).body;
}
