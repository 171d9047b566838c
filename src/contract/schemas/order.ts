/** Orders ingested from every channel in one normalized shape, and the fulfillment input. */
import { z } from 'zod';
import { Money, Timestamp } from './common.js';

/** Tracking of a shipped order. */
export const Tracking = z.looseObject({
  number: z.string(),
  carrier: z.string(),
  url: z.string().nullish(),
});
export type Tracking = z.infer<typeof Tracking>;

/** The buyer's ship-to address. */
export const Address = z.looseObject({
  name: z.string().nullish(),
  line1: z.string().nullish(),
  line2: z.string().nullish(),
  city: z.string().nullish(),
  region: z.string().nullish(),
  postal_code: z.string().nullish(),
  country: z.string().nullish(),
  phone: z.string().nullish(),
});
export type Address = z.infer<typeof Address>;

/** The buyer: personal data, returned only with `orders:read`. */
export const Buyer = z.looseObject({
  name: z.string().nullish(),
  email: z.string().nullish(),
  country: z.string().nullish(),
  address: Address.nullish(),
});
export type Buyer = z.infer<typeof Buyer>;

/** One line of an order. */
export const OrderLine = z.looseObject({
  sku: z.string(),
  title: z.string().nullish(),
  quantity: z.number().int(),
  price: Money.nullish(),
  product_id: z.string().nullish(),
});
export type OrderLine = z.infer<typeof OrderLine>;

/** An order as GET returns it; `updated_at` is additive and orders the list. */
export const Order = z.looseObject({
  id: z.string(),
  object: z.string(),
  channel_account_id: z.string(),
  channel: z.string().nullish(),
  order_id_on_channel: z.string().nullish(),
  order_url: z.string().nullish(),
  status: z.string(),
  fulfillment_status: z.string().nullish(),
  source_status: z.string().nullish(),
  tracking: Tracking.nullish(),
  currency: z.string().nullish(),
  total: Money.nullish(),
  lines: z.array(OrderLine).nullish(),
  buyer: Buyer.nullish(),
  created_at: Timestamp,
  updated_at: Timestamp.nullish(),
});
export type Order = z.infer<typeof Order>;

/** The body of POST /orders/{id}/fulfillment. */
export const FulfillmentInput = z.object({
  tracking: z.object({
    number: z.string().min(1),
    carrier: z.string().min(1),
    url: z.url().optional(),
  }),
});
export type FulfillmentInput = z.infer<typeof FulfillmentInput>;
