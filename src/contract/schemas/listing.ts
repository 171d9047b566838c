/** Listings: a product published on one channel account, and the inputs that publish it. */
import { z } from 'zod';
import { BATCH_MAX_ITEMS } from '../contract.js';
import { Timestamp } from './common.js';

/** Known listing statuses; others may appear. */

/** A channel-side problem of a listing, in plain text. */
export const ListingIssue = z.looseObject({
  code: z.string(),
  severity: z.string().nullish(),
  message: z.string().nullish(),
  attribute_names: z.array(z.string()).nullish(),
});
export type ListingIssue = z.infer<typeof ListingIssue>;

/** One variant of a listed product as the channel knows it. */
export const ListingVariant = z.looseObject({
  variant_id: z.string(),
  sku: z.string().nullish(),
  id_on_channel: z.string().nullish(),
  status: z.string().nullish(),
});

/** Per-channel overrides of the product's content. */
export const ListingOverrides = z.looseObject({
  title: z.string().nullish(),
  description: z.string().nullish(),
  category_id: z.string().nullish(),
});

/** A listing as GET returns it. */
export const Listing = z.looseObject({
  id: z.string(),
  object: z.string(),
  product_id: z.string(),
  channel_account_id: z.string(),
  channel: z.string().nullish(),
  status: z.string(),
  id_on_channel: z.string().nullish(),
  url_on_channel: z.string().nullish(),
  site: z.string().nullish(),
  overrides: ListingOverrides.nullish(),
  attributes: z.record(z.string(), z.unknown()).nullish(),
  variants: z.array(ListingVariant).nullish(),
  issues: z.array(ListingIssue).nullish(),
  operation_id: z.string().nullish(),
  created_at: Timestamp.nullish(),
  updated_at: Timestamp,
});
export type Listing = z.infer<typeof Listing>;

const overridesInput = z.object({
  title: z.string().min(1).optional(),
  description: z.string().optional(),
  category_id: z.string().min(1).optional(),
  // Policy ids may be referenced where the channel supports it; the key set is open.
  shipping_policy_id: z.string().optional(),
  return_policy_id: z.string().optional(),
  payment_policy_id: z.string().optional(),
});

/** The body of POST /listings and each item of POST /listings/batch. */
export const ListingInput = z.object({
  product_id: z.string().min(1),
  channel_account_id: z.string().min(1),
  overrides: overridesInput.optional(),
  attributes: z.record(z.string(), z.unknown()).optional(),
});
export type ListingInput = z.infer<typeof ListingInput>;

/** The body of PATCH /listings/{id}; `{}` is a plain resync. */
export const ListingUpdate = z.object({
  overrides: overridesInput.optional(),
  attributes: z.record(z.string(), z.unknown()).optional(),
});
export type ListingUpdate = z.infer<typeof ListingUpdate>;

/** The body of POST /listings/batch: 1 to 100 listings. */
export const ListingBatchInput = z.object({
  // Over BATCH_MAX_ITEMS is refused `batch_too_large` before the items are read; the bound is for docs/openapi.json.
  items: z.array(ListingInput).min(1).meta({ maxItems: BATCH_MAX_ITEMS }),
});
export type ListingBatchInput = z.infer<typeof ListingBatchInput>;
