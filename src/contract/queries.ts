/**
 * The query parameters of the lists, as zod schemas: what docs/openapi.json says each list
 * takes, and the patterns the emulator reads them with.
 */
import { z } from 'zod';
import {
  EVENT_TYPES,
  LISTING_STATUSES,
  OPERATION_STATUSES,
  ORDER_STATUSES,
  PAGE_LIMIT_DEFAULT,
  PAGE_LIMIT_MAX,
  PAGE_LIMIT_MIN,
} from './contract.js';
import { DateTimeInput } from './schemas/common.js';

/** A cursor as the emulator writes it: base64url, opaque to clients. */
export const CURSOR_PATTERN = /^[A-Za-z0-9_-]+$/;

const limit = z
  .int()
  .min(PAGE_LIMIT_MIN)
  .max(PAGE_LIMIT_MAX)
  .default(PAGE_LIMIT_DEFAULT)
  .meta({ description: `items per page, ${PAGE_LIMIT_MIN} to ${PAGE_LIMIT_MAX}` });
const cursor = z.string().meta({
  description:
    '`next_cursor` of the previous page, sent with the same path and filters; opaque, not kept long',
});

/** `limit` and `cursor`, which every paged list takes. */
export const PageQuery = z.object({ limit: limit.optional(), cursor: cursor.optional() });

function time(what: string) {
  return DateTimeInput.meta({
    description: `only items ${what} at or after this time (inclusive); an RFC 3339 date-time with its offset`,
  });
}

/** A filter on values the API reference lists (docs/service-contract.md); others are taken and match nothing (new ones may be added). */
function oneOf<const T extends readonly [string, ...string[]]>(values: T, description: string) {
  return z.union([z.enum(values), z.string()]).meta({ description });
}

/** GET /products. */
export const ProductsQuery = PageQuery.extend({ updated_after: time('updated').optional() });

/** GET /listings. */
export const ListingsQuery = PageQuery.extend({
  product_id: z.string().optional(),
  channel_account_id: z.string().optional(),
  channel: z.string().optional().meta({ description: 'a channel kind: matches every account of that kind' }),
  status: oneOf(LISTING_STATUSES, 'listing status').optional(),
  error_code: z.string().optional().meta({ description: 'only listings whose `issues[]` hold this code' }),
  updated_after: time('updated').optional(),
});

/** GET /orders. */
export const OrdersQuery = PageQuery.extend({
  channel_account_id: z.string().optional(),
  channel: z.string().optional().meta({ description: 'a channel kind: matches every account of that kind' }),
  status: oneOf(ORDER_STATUSES, 'order status').optional(),
  created_after: time('created').optional(),
});

/** GET /operations. */
export const OperationsQuery = PageQuery.extend({
  status: oneOf(OPERATION_STATUSES, 'operation status').optional(),
  created_after: time('created').optional(),
});

/** GET /events: the last 30 days at most. */
export const EventsQuery = PageQuery.extend({
  type: oneOf(EVENT_TYPES, 'an event type, or a family such as `order.*`').optional(),
  created_after: time('created').optional(),
});

/** GET /channel_accounts/{id}/categories. */
export const CategoriesQuery = PageQuery.extend({
  query: z.string().optional().meta({ description: 'words in the name or path, any case' }),
  parent_id: z.string().optional().meta({ description: 'only the children of this category' }),
});
