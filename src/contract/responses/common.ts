/**
 * The pieces every answer of the service is made of, exactly as the emulator sends them:
 * which fields are always there, which may be null, which values a field takes. The client's
 * own schemas (src/contract/schemas/) read the same answers tolerantly; these say what is sent, and
 * docs/openapi.json is generated from them.
 */
import { z } from 'zod';
import { ERROR_CODES, ERROR_TYPES, PRICE_PATTERN } from '../contract.js';

/** A UTC ISO 8601 date-time with milliseconds, such as `2025-06-15T12:00:00.000Z`. */
export const Timestamp = z.string().meta({ format: 'date-time' });

/** A money amount, price or measure: a non-negative decimal string, never a number. */
export const Decimal = z.string().regex(PRICE_PATTERN);

/** An id with its kind's prefix, such as `prod_…`. */
export function idOf(prefix: string) {
  return z.string().regex(new RegExp(`^${prefix}_`));
}

/** The list envelope of a page of `item`; the last page has `has_more: false` and `next_cursor: null`. */
export function listOf<T extends z.ZodType>(item: T) {
  return z.object({
    object: z.literal('list'),
    data: z.array(item),
    has_more: z.boolean(),
    next_cursor: z.string().nullable().meta({ description: 'opaque; pass it as `cursor` for the next page' }),
  });
}

/** What a write changed on the channels: its operation and each channel account it reaches. */
export const SyncBlock = z.object({
  operation_id: idOf('op'),
  channels: z.array(
    z.object({
      channel_account_id: idOf('chac'),
      status: z.enum(['pending', 'simulated']),
    }),
  ),
});

/** A per-item or per-result error: a code and a plain-text message. */
export const ItemError = z.object({ code: z.string(), message: z.string() });

/** The answer to a DELETE. */
export const Deleted = z.object({
  id: z.string(),
  object: z.enum(['product', 'webhook_endpoint']),
  deleted: z.literal(true),
});

/** Every error type the contract names. */
const ERROR_TYPE_VALUES = Object.values(ERROR_TYPES) as [string, ...string[]];
/** Every error code the contract names for a whole request (not `sku_not_found`, a per-item one). */
const ERROR_CODE_VALUES = Object.values(ERROR_CODES).filter((code) => code !== ERROR_CODES.skuNotFound) as [
  string,
  ...string[],
];

/** The body of every error answer; clients branch on `code` and the HTTP status. */
export const ErrorBody = z.object({
  error: z.object({
    type: z.enum(ERROR_TYPE_VALUES),
    code: z.enum(ERROR_CODE_VALUES),
    message: z.string().meta({ description: 'one line a person can read: what failed and what to do' }),
    param: z
      .string()
      .optional()
      .meta({ description: 'the parameter, field (`items[3].price`) or header at fault' }),
  }),
});
