/** Products, their variants and images: response shapes and the inputs that write them. */
import { z } from 'zod';
import { BATCH_MAX_ITEMS, IMAGES_PER_PRODUCT_MAX, PRODUCT_STATUSES, QUANTITY_MAX } from '../contract.js';
import { DateTimeInput, Money, PriceInput, SyncBlock, Timestamp } from './common.js';
import { Base64Text } from './file.js';

/** An image of a product; array order is display order. */
export const Image = z.looseObject({
  id: z.string(),
  object: z.string().nullish(),
  url: z.string(),
  alt: z.string().nullish(),
  position: z.number().int().nullish(),
});
export type Image = z.infer<typeof Image>;

/** A variant's reference to one of its product's images. */
export const VariantImage = z.looseObject({
  image_id: z.string(),
  url: z.string().nullish(),
  position: z.number().int().nullish(),
});

/** A sellable variant, identified store-wide by its SKU. */
export const Variant = z.looseObject({
  id: z.string(),
  object: z.string().nullish(),
  sku: z.string(),
  title: z.string().nullish(),
  price: Money.nullish(),
  msrp: Money.nullish(),
  quantity: z.number().int().nullish(),
  barcode: z.string().nullish(),
  grams: z.number().int().nullish(),
  asin: z.string().nullish(),
  images: z.array(VariantImage).nullish(),
  options: z.record(z.string(), z.string()).nullish(),
});
export type Variant = z.infer<typeof Variant>;

/** A listing as summarised inside its product. */
export const ListingSummary = z.looseObject({
  id: z.string(),
  channel_account_id: z.string(),
  channel: z.string().nullish(),
  status: z.string(),
  url_on_channel: z.string().nullish(),
});
export type ListingSummary = z.infer<typeof ListingSummary>;

/** Weight of a product: value as a decimal string and its unit. */
export const Weight = z.looseObject({ value: z.string(), unit: z.string() });
/** Dimensions of a product: decimal strings and their unit. */
export const Dimensions = z.looseObject({
  length: z.string(),
  width: z.string(),
  height: z.string(),
  unit: z.string(),
});

/** A product as GET returns it; `sync` only appears in an update's answer. */
export const Product = z.looseObject({
  id: z.string(),
  object: z.string(),
  title: z.string(),
  description: z.string().nullish(),
  brand: z.string().nullish(),
  category: z.string().nullish(),
  short_description: z.string().nullish(),
  vat_rate: z.number().nullish(),
  mpn: z.string().nullish(),
  weight: Weight.nullish(),
  dimensions: Dimensions.nullish(),
  tags: z.array(z.string()).nullish(),
  currency: z.string().nullish(),
  status: z.string().nullish(),
  sync_status: z.string().nullish(),
  images: z.array(Image).nullish(),
  variants: z.array(Variant).nullish(),
  listings: z.array(ListingSummary).nullish(),
  created_at: Timestamp.nullish(),
  updated_at: Timestamp,
  sync: SyncBlock.nullish(),
});
export type Product = z.infer<typeof Product>;

/** An image a client sends: a kept one by `id`, or a new one by `url` or `base64`. */
export const ImageInput = z
  .object({
    id: z.string().min(1).optional(),
    // Hosted from the web: http(s) only, which the pattern says for docs/openapi.json.
    url: z
      .url()
      .regex(/^[Hh][Tt][Tt][Pp][Ss]?:\/\//, 'must be an http(s) URL')
      .optional(),
    base64: Base64Text.optional(),
    alt: z.string().optional(),
  })
  .refine((image) => image.id !== undefined || image.url !== undefined || image.base64 !== undefined, {
    message: 'an image needs an id, a url or base64 data',
    params: { code: 'parameter_missing' },
  })
  // The same rule as JSON Schema says it, for docs/openapi.json.
  .meta({ anyOf: [{ required: ['id'] }, { required: ['url'] }, { required: ['base64'] }] });
export type ImageInput = z.infer<typeof ImageInput>;

/** A variant a client sends when creating or upserting a product. */
export const VariantInput = z.object({
  sku: z.string().min(1),
  title: z.string().optional(),
  price: PriceInput.optional(),
  msrp: PriceInput.optional(),
  quantity: z.int().min(0).max(QUANTITY_MAX).optional(),
  barcode: z.string().optional(),
  grams: z.int().min(0).max(QUANTITY_MAX).optional(),
  asin: z.string().optional(),
  options: z.record(z.string(), z.string()).optional(),
});
export type VariantInput = z.infer<typeof VariantInput>;

const productFields = {
  title: z.string().min(1),
  description: z.string().optional(),
  brand: z.string().optional(),
  category: z.string().optional(),
  short_description: z.string().optional(),
  vat_rate: z.number().min(0).optional(),
  mpn: z.string().optional(),
  weight: z.object({ value: PriceInput, unit: z.string().min(1) }).optional(),
  dimensions: z
    .object({ length: PriceInput, width: PriceInput, height: PriceInput, unit: z.string().min(1) })
    .optional(),
  tags: z.array(z.string()).optional(),
  currency: z.string().length(3).optional(),
  status: z.enum(PRODUCT_STATUSES).optional(),
  // More is refused 422 validation_failed (a rule of the service); the bound is for docs/openapi.json.
  images: z.array(ImageInput).meta({ maxItems: IMAGES_PER_PRODUCT_MAX }).optional(),
  variants: z.array(VariantInput).optional(),
};

/** The body of POST /products and each item of POST /products/batch; title required. */
export const ProductInput = z.object(productFields);
export type ProductInput = z.infer<typeof ProductInput>;

/** The body of PATCH /products/{id}: any subset of ProductInput plus `expected_updated_at`. */
export const ProductUpdate = z
  .object({ ...productFields, expected_updated_at: DateTimeInput })
  .partial()
  .refine((body) => Object.keys(body).length > 0, {
    message: 'the body needs at least one field',
    params: { code: 'parameter_missing' },
  })
  // At least one product field besides expected_updated_at (unknown ones are not read).
  .meta({ anyOf: Object.keys(productFields).map((name) => ({ required: [name] })) });
export type ProductUpdate = z.infer<typeof ProductUpdate>;

/** The body of POST /products/batch: 1 to 100 products. */
export const ProductBatchInput = z.object({
  // Over BATCH_MAX_ITEMS is refused `batch_too_large` before the items are read; the bound is for docs/openapi.json.
  items: z.array(ProductInput).min(1).meta({ maxItems: BATCH_MAX_ITEMS }),
});
export type ProductBatchInput = z.infer<typeof ProductBatchInput>;
