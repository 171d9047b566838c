/**
 * Shapes every resource shares: the list envelope, the error body, timestamps and money.
 * Response schemas are tolerant (unknown fields kept, enums typed as string) because the
 * service adds fields and enum values within /v1; input schemas are strict where the
 * contract pins a type.
 */
import { z } from 'zod';
import { PRICE_PATTERN } from '../contract.js';
import { isDateTime } from '../rules/date-time.js';

/** A date-time as sent on the wire; kept as the string received. */
export const Timestamp = z.string();

/** A date-time a client sends: RFC 3339 with its offset, a real date and time (`format: date-time`). */
export const DateTimeInput = z
  .string()
  .refine(isDateTime, 'must be an RFC 3339 date-time with an offset, such as 2025-01-31T09:00:00Z')
  .meta({ format: 'date-time' });

/** A money amount or price: a decimal string, never a number. */
export const Money = z.string();

/** A price a client sends: a non-negative decimal string such as "12.50". */
export const PriceInput = z
  .string()
  .regex(PRICE_PATTERN, 'must be a non-negative decimal string such as "12.50"');

/** The list envelope around any resource schema. */
export function listOf<T extends z.ZodType>(item: T) {
  return z.looseObject({
    object: z.string(),
    data: z.array(item),
    has_more: z.boolean().nullish(),
    next_cursor: z.string().nullish(),
  });
}

/** The answer to a DELETE: `{id, object, deleted: true}`. */
export const Deleted = z.looseObject({
  id: z.string(),
  object: z.string(),
  deleted: z.boolean(),
});
export type Deleted = z.infer<typeof Deleted>;

/** The `sync` block of an update answer: the operation and each channel it touches. */
export const SyncBlock = z.looseObject({
  operation_id: z.string().nullish(),
  channels: z
    .array(
      z.looseObject({
        channel_account_id: z.string(),
        status: z.string(),
      }),
    )
    .nullish(),
});
export type SyncBlock = z.infer<typeof SyncBlock>;

/** A per-item or per-result error: code and plain-text message. */
export const ItemError = z.looseObject({
  code: z.string(),
  message: z.string().nullish(),
});
export type ItemError = z.infer<typeof ItemError>;
