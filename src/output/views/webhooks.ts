/** How webhook endpoints are shown. */
import type { DeletedWebhookEndpoint, WebhookEndpoint } from '../../contract/schemas/webhook-endpoint.js';
import type { View } from '../view.js';

/** Webhook endpoints: where events go, which ones, and whether delivery is on. */
export const webhooksView: View<WebhookEndpoint> = {
  columns: [
    { header: 'ID', cell: (w) => w.id },
    { header: 'URL', cell: (w) => w.url, shrink: true },
    { header: 'EVENTS', cell: (w) => w.enabled_events.join(','), shrink: true },
    { header: 'STATUS', cell: (w) => w.status },
    { header: 'CREATED', time: (w) => w.created_at },
  ],
  fields: ['id', 'url', 'enabled_events', 'status', 'description', 'created_at'],
};

/** "we_123 → https://example.com/hooks (order.created, order.status_changed), enabled". */
function webhookSummary(endpoint: WebhookEndpoint): string {
  return `${endpoint.id} → ${endpoint.url} (${endpoint.enabled_events.join(', ')}), ${endpoint.status}`;
}

/** A new endpoint and its signing secret, which the service shows only at creation. */
export function createdWebhookText(endpoint: WebhookEndpoint): string {
  return [
    `Created webhook endpoint ${webhookSummary(endpoint)}`,
    '',
    `Signing secret: ${endpoint.secret ?? '(the service sent none)'}`,
  ].join('\n');
}

/** "Updated webhook endpoint we_123 → …". */
export function updatedWebhookText(endpoint: WebhookEndpoint): string {
  return `Updated webhook endpoint ${webhookSummary(endpoint)}`;
}

/** "Deleted webhook endpoint we_123". */
export function deletedWebhookText(answer: DeletedWebhookEndpoint): string {
  return `Deleted webhook endpoint ${answer.id}`;
}
