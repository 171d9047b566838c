/** Webhook endpoints: where events are delivered, and the inputs that manage them. */
import { z } from 'zod';
import { Timestamp } from './common.js';

/** Known endpoint statuses; others may appear. */
export const WEBHOOK_ENDPOINT_STATUSES = ['enabled', 'disabled'] as const;

/** A webhook endpoint; `secret` only appears in the answer to its creation. */
export const WebhookEndpoint = z.looseObject({
  id: z.string(),
  object: z.string(),
  url: z.string(),
  enabled_events: z.array(z.string()),
  status: z.string(),
  description: z.string().nullish(),
  created_at: Timestamp.nullish(),
  secret: z.string().nullish(),
});
export type WebhookEndpoint = z.infer<typeof WebhookEndpoint>;

/** The body of POST /webhook_endpoints; `["*"]` subscribes to every type. */
export const WebhookEndpointInput = z.object({
  url: z.url(),
  enabled_events: z.array(z.string().min(1)).min(1),
  description: z.string().optional(),
});
export type WebhookEndpointInput = z.infer<typeof WebhookEndpointInput>;

/** The body of PATCH /webhook_endpoints/{id}. */
export const WebhookEndpointUpdate = z.object({
  url: z.url().optional(),
  enabled_events: z.array(z.string().min(1)).min(1).optional(),
  status: z.enum(['enabled', 'disabled']).optional(),
  description: z.string().optional(),
});
export type WebhookEndpointUpdate = z.infer<typeof WebhookEndpointUpdate>;

/** The answer to DELETE /webhook_endpoints/{id}. */
export const DeletedWebhookEndpoint = z.looseObject({ id: z.string(), deleted: z.boolean().optional() });
export type DeletedWebhookEndpoint = z.infer<typeof DeletedWebhookEndpoint>;
