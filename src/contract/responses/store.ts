/** Channel accounts, orders, operations, events, webhook endpoints and the service's health, as the emulator answers them. */
import { z } from 'zod';
import { EVENT_TYPES, OPERATION_STATUSES, ORDER_STATUSES, WEBHOOK_SECRET_PREFIX } from '../contract.js';
import { OPERATION_RESULT_STATUSES } from '../schemas/operation.js';
import { WEBHOOK_ENDPOINT_STATUSES } from '../schemas/webhook-endpoint.js';
import { InventoryItem, Listing, Product } from './catalog.js';
import { Decimal, ItemError, idOf, listOf, Timestamp } from './common.js';

const accountFields = {
  id: idOf('chac'),
  object: z.literal('channel_account'),
  channel: z
    .string()
    .meta({ description: 'the channel kind, such as `etsy`; the store has one entry per account' }),
  label: z.string(),
  shop_name: z.string(),
  status: z.string(),
  discovery: z.object({ categories: z.boolean(), attribute_schema: z.boolean(), policies: z.boolean() }),
};

/** A channel account as the list shows it. */
export const ChannelAccountSummary = z.object(accountFields);

/** The channel accounts, in one page. */
export const ChannelAccountList = listOf(ChannelAccountSummary);

/** A channel account as GET by id returns it. */
export const ChannelAccount = z.object({
  ...accountFields,
  sync: z.object({
    product_edits: z.boolean(),
    quantity_from_orders: z.boolean(),
    quantity_from_channel_edits: z.boolean(),
    content_from_channel_edits: z.boolean(),
  }),
  pricing: z.object({ mode: z.string(), value: z.number() }),
  inventory: z.object({ control: z.boolean(), threshold: z.number() }),
});

/** A read-only shipping, return or payment policy of an account. */
export const Policy = z.object({
  id: idOf('pol'),
  object: z.literal('policy'),
  type: z.string(),
  name: z.string(),
});

/** The policies of an account, in one page. */
export const PolicyList = listOf(Policy);

/** A channel category; `path` names it from the root. */
export const Category = z.object({
  id: z.string(),
  object: z.literal('category'),
  name: z.string(),
  path: z.string(),
  parent_id: z.string().nullable().meta({ description: 'null for a top-level category' }),
  leaf: z.boolean().meta({ description: 'only a leaf category can be chosen for a listing' }),
});

/** A page of categories. */
export const CategoryList = listOf(Category);

/** The attributes a category asks for. */
export const AttributeSchema = z.object({
  object: z.literal('attribute_schema'),
  category_id: z.string(),
  attributes: z.array(
    z.object({
      name: z.string(),
      type: z.string(),
      required: z.boolean(),
      values: z
        .array(z.string())
        .optional()
        .meta({ description: 'the values allowed, for an enumerated attribute' }),
    }),
  ),
});

/** The buyer's ship-to address. */
export const Address = z.object({
  name: z.string(),
  line1: z.string(),
  line2: z.string().nullable(),
  city: z.string(),
  region: z.string(),
  postal_code: z.string(),
  country: z.string(),
  phone: z.string().nullable(),
});

/** An order ingested from a channel, in the shape shared by every channel. */
export const Order = z.object({
  id: idOf('ord'),
  object: z.literal('order'),
  channel_account_id: idOf('chac'),
  channel: z.string(),
  order_id_on_channel: z.string(),
  order_url: z.url(),
  status: z.enum(ORDER_STATUSES),
  fulfillment_status: z.string(),
  source_status: z.string().meta({ description: "the channel's own status" }),
  tracking: z
    .object({ number: z.string(), carrier: z.string(), url: z.url().nullable() })
    .nullable()
    .meta({ description: 'null until the order is shipped' }),
  currency: z.string().length(3),
  total: Decimal,
  lines: z.array(
    z.object({
      sku: z.string(),
      title: z.string(),
      quantity: z.int().min(1),
      price: Decimal,
      product_id: idOf('prod'),
    }),
  ),
  buyer: z.object({ name: z.string(), email: z.string(), country: z.string(), address: Address }),
  created_at: Timestamp,
  updated_at: Timestamp.meta({
    description: 'additive to the reference: the list of orders is in its order',
  }),
});

/** A page of orders. */
export const OrderList = listOf(Order);

/** The outcome of an operation on one channel account. */
export const OperationResult = z.object({
  channel_account_id: idOf('chac'),
  listing_id: idOf('list').nullable(),
  sku: z.string().nullable(),
  status: z.enum(OPERATION_RESULT_STATUSES),
  error: ItemError.nullable().meta({ description: 'why the result failed, or why it is being retried' }),
});

/** The asynchronous propagation of one write to the channels. */
export const Operation = z.object({
  id: idOf('op'),
  object: z.literal('operation'),
  type: z.string(),
  status: z.enum(OPERATION_STATUSES),
  resource_type: z.string(),
  resource_id: z.string(),
  results: z.array(OperationResult),
  created_at: Timestamp,
  completed_at: Timestamp.nullable().meta({
    description: 'null until the operation succeeded, failed or ended partial',
  }),
});

/** A page of operations. */
export const OperationList = listOf(Operation);

/** The resource each event type carries in `data.object`, as GET returned it at that moment. */
const EVENT_OBJECTS = {
  'order.created': Order,
  'order.status_changed': Order,
  'product.updated': Product,
  'product.deleted': Product,
  'inventory.updated': InventoryItem,
  'listing.status_changed': Listing,
  'operation.completed': Operation,
} as const satisfies Record<(typeof EVENT_TYPES)[number], z.ZodType>;

/** An event of the log, and the body of a webhook delivery. */
export const Event = z.discriminatedUnion(
  'type',
  EVENT_TYPES.map((type) =>
    z.object({
      id: idOf('evt'),
      object: z.literal('event'),
      type: z.literal(type),
      api_version: z.string().meta({ description: 'a date' }),
      store_id: z.string(),
      created_at: Timestamp,
      data: z.object({ object: EVENT_OBJECTS[type] }),
    }),
  ) as unknown as [z.ZodObject, ...z.ZodObject[]],
);

/** A page of the event log. */
export const EventList = listOf(Event);

const endpointFields = {
  id: idOf('we'),
  object: z.literal('webhook_endpoint'),
  url: z.url(),
  enabled_events: z.array(z.union([z.enum(EVENT_TYPES), z.literal('*')])),
  status: z.enum(WEBHOOK_ENDPOINT_STATUSES),
  description: z.string().nullable(),
  created_at: Timestamp,
};

/** A registered webhook receiver. */
export const WebhookEndpoint = z.object(endpointFields);

/** A page of webhook endpoints. */
export const WebhookEndpointList = listOf(WebhookEndpoint);

/** The answer to POST /webhook_endpoints, the only one that carries the signing secret. */
export const WebhookEndpointWithSecret = z.object({
  ...endpointFields,
  secret: z
    .string()
    .regex(new RegExp(`^${WEBHOOK_SECRET_PREFIX}`))
    .meta({ description: 'shown once: keep it to verify signatures' }),
});

/** GET /status: the public status page's data. */
export const Status = z.object({
  object: z.literal('status'),
  state: z.string(),
  last_check: z.object({ time: Timestamp, ok: z.boolean(), latency_ms: z.number().min(0) }),
  uptime_24h: z.number().min(0).max(100).meta({ description: 'a percentage, such as 99.93' }),
  avg_latency_ms: z.number().min(0),
  buckets: z.array(z.object({ t: Timestamp, up_ratio: z.number().min(0).max(1) })).meta({
    description: 'seven days of half-hour buckets, oldest first',
  }),
});

/** GET /health: `ok` while the API and its database are reachable. */
export const Health = z.object({
  object: z.literal('health'),
  status: z.literal('ok'),
  time: Timestamp,
});
