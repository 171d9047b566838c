/** /webhook_endpoints: list, create (the only answer with the secret), get, update, delete. */
import { randomBytes } from 'node:crypto';
import { EVENT_TYPES, WEBHOOK_LOOPBACK_HOSTS, WEBHOOK_SECRET_PREFIX } from '../../../contract/contract.js';
import { WebhookEndpointInput, WebhookEndpointUpdate } from '../../../contract/schemas/webhook-endpoint.js';
import { isoTime } from '../../clock.js';
import type { WebhookEndpointRecord } from '../../model.js';
import type { Store } from '../../store/store.js';
import { invalidParam, notFound } from '../errors.js';
import { listPage, parsePage } from '../pagination.js';
import type { Handler } from '../router.js';
import { validateBody } from '../validation.js';

const LOOPBACK_HOSTS = new Set<string>(WEBHOOK_LOOPBACK_HOSTS);

/** An endpoint without its signing secret. */
function publicEndpoint({ secret: _secret, ...endpoint }: WebhookEndpointRecord) {
  return endpoint;
}

/** GET /webhook_endpoints: created_at descending. */
export const listWebhookEndpoints: Handler = (store, request) => {
  const page = parsePage(request);
  const envelope = listPage(store.webhookEndpoints, page, []);
  return { status: 200, body: { ...envelope, data: envelope.data.map(publicEndpoint) } };
};

/** GET /webhook_endpoints/{id}. */
export const getWebhookEndpoint: Handler = (store, request) => {
  return { status: 200, body: publicEndpoint(findEndpoint(store, request.params.id)) };
};

/** POST /webhook_endpoints: 201 with `secret`; a test key gets the same answer and nothing is kept. */
export const createWebhookEndpoint: Handler = (store, request) => {
  const input = validateBody(WebhookEndpointInput, request.body);
  const endpoint: WebhookEndpointRecord = {
    id: store.ids.next('we'),
    object: 'webhook_endpoint',
    url: checkUrl(input.url),
    enabled_events: checkEvents(input.enabled_events),
    status: 'enabled',
    description: input.description ?? null,
    created_at: isoTime(store.now()),
    secret: `${WEBHOOK_SECRET_PREFIX}${randomBytes(24).toString('hex')}`,
  };
  if (request.key?.mode !== 'test') store.webhookEndpoints.set(endpoint.id, endpoint);
  return { status: 201, body: { ...endpoint } };
};

/** PATCH /webhook_endpoints/{id}: url, enabled_events, status ("enabled" or "disabled"), description. */
export const updateWebhookEndpoint: Handler = (store, request) => {
  const input = validateBody(WebhookEndpointUpdate, request.body);
  const current = findEndpoint(store, request.params.id);
  const updated: WebhookEndpointRecord = {
    ...current,
    url: input.url === undefined ? current.url : checkUrl(input.url),
    enabled_events:
      input.enabled_events === undefined ? current.enabled_events : checkEvents(input.enabled_events),
    status: input.status ?? current.status,
    description: input.description ?? current.description,
  };
  if (request.key?.mode !== 'test') store.webhookEndpoints.set(updated.id, updated);
  return { status: 200, body: publicEndpoint(updated) };
};

/** DELETE /webhook_endpoints/{id}. */
export const deleteWebhookEndpoint: Handler = (store, request) => {
  const endpoint = findEndpoint(store, request.params.id);
  if (request.key?.mode !== 'test') store.webhookEndpoints.delete(endpoint.id);
  return { status: 200, body: { id: endpoint.id, object: 'webhook_endpoint', deleted: true } };
};

function findEndpoint(store: Store, id: string): WebhookEndpointRecord {
  const endpoint = store.webhookEndpoints.get(id);
  if (!endpoint) throw notFound(`No such webhook endpoint: ${id}.`, 'id');
  return endpoint;
}

/** HTTPS anywhere, or plain http to this machine (docs/service-contract.md, Webhooks). */
function checkUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw invalidParam('url', 'url must be an absolute https:// URL.');
  }
  if (url.protocol === 'https:') return raw;
  if (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname)) return raw;
  throw invalidParam(
    'url',
    'url must use https://; plain http:// is accepted only for 127.0.0.1, localhost or [::1].',
  );
}

/** Known event types, or `*` for every type. */
function checkEvents(events: string[]): string[] {
  const known = new Set<string>(EVENT_TYPES);
  events.forEach((type, index) => {
    if (type !== '*' && !known.has(type)) {
      throw invalidParam(
        `enabled_events[${index}]`,
        `Unknown event type ${JSON.stringify(type)}; use one of ${EVENT_TYPES.join(', ')}, or "*".`,
      );
    }
  });
  return [...new Set(events)];
}
