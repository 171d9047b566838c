/** Channel accounts and their discovery data: policies, categories, attribute schemas. */
import { z } from 'zod';

/** Channel kinds the emulator seeds; the service may connect others. */
export const CHANNEL_KINDS = ['amazon', 'ebay', 'etsy', 'shopify', 'walmart'] as const;

/** Which channel-side discovery data an account offers. */
export const Discovery = z.looseObject({
  categories: z.boolean().nullish(),
  attribute_schema: z.boolean().nullish(),
  policies: z.boolean().nullish(),
});

/** A channel account as the list returns it. */
export const ChannelAccountSummary = z.looseObject({
  id: z.string(),
  object: z.string(),
  channel: z.string(),
  label: z.string().nullish(),
  shop_name: z.string().nullish(),
  status: z.string().nullish(),
  discovery: Discovery.nullish(),
});
export type ChannelAccountSummary = z.infer<typeof ChannelAccountSummary>;

/** A channel account as GET by id returns it. */
export const ChannelAccount = ChannelAccountSummary.extend({
  sync: z
    .looseObject({
      product_edits: z.boolean().optional(),
      quantity_from_orders: z.boolean().optional(),
      quantity_from_channel_edits: z.boolean().optional(),
      content_from_channel_edits: z.boolean().optional(),
    })
    .optional(),
  pricing: z.looseObject({ mode: z.string(), value: z.number().nullish() }).optional(),
  inventory: z.looseObject({ control: z.boolean(), threshold: z.number().nullish() }).optional(),
});
export type ChannelAccount = z.infer<typeof ChannelAccount>;

/** A read-only shipping, return or payment policy of an account. */
export const Policy = z.looseObject({
  id: z.string(),
  object: z.string().nullish(),
  type: z.string(),
  name: z.string(),
});
export type Policy = z.infer<typeof Policy>;

/** A channel category; `path` names it from the root. */
export const Category = z.looseObject({
  id: z.string(),
  object: z.string(),
  name: z.string(),
  path: z.string().nullish(),
  parent_id: z.string().nullish(),
  leaf: z.boolean().nullish(),
});
export type Category = z.infer<typeof Category>;

/** One attribute a category asks for. */
export const AttributeDefinition = z.looseObject({
  name: z.string(),
  type: z.string(),
  required: z.boolean(),
  values: z.array(z.string()).nullish(),
});
export type AttributeDefinition = z.infer<typeof AttributeDefinition>;

/** The attributes a category asks for. */
export const AttributeSchema = z.looseObject({
  object: z.string(),
  category_id: z.string(),
  attributes: z.array(AttributeDefinition),
});
export type AttributeSchema = z.infer<typeof AttributeSchema>;
