/** GET /webhook_endpoints and GET /webhook_endpoints/{id}; the secret is shown only at creation. */
import { notFound } from '../errors.js';
import type { WebhookEndpointRecord } from '../model.js';
import { paginate, parsePage } from '../pagination.js';
import type { Handler } from '../router.js';

/** An endpoint without its signing secret. */
export function publicEndpoint({ secret: _secret, ...endpoint }: WebhookEndpointRecord) {
  return endpoint;
}

/** GET /webhook_endpoints: created_at descending. */
export const listWebhookEndpoints: Handler = (store, request) => {
  const page = parsePage(request.query);
  const envelope = paginate<WebhookEndpointRecord>(
    store.webhookEndpoints.values(),
    { key: (endpoint) => endpoint.created_at, direction: 'desc' },
    page,
  );
  return { status: 200, body: { ...envelope, data: envelope.data.map(publicEndpoint) } };
};

/** GET /webhook_endpoints/{id}. */
export const getWebhookEndpoint: Handler = (store, request) => {
  const endpoint = store.webhookEndpoints.get(request.params.id);
  if (!endpoint) throw notFound(`No such webhook endpoint: ${request.params.id}.`, 'id');
  return { status: 200, body: publicEndpoint(endpoint) };
};
