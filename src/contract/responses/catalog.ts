/** Products, variants, images, listings, inventory and files, as the emulator answers them. */
import { z } from 'zod';
import { LISTING_STATUSES } from '../contract.js';
import { BATCH_ITEM_STATUSES } from '../schemas/batch.js';
import { INVENTORY_ITEM_STATUSES } from '../schemas/inventory.js';
import { Decimal, ItemError, idOf, listOf, SyncBlock, Timestamp } from './common.js';

/** An image of a product; `position` is its place in display order. */
export const Image = z.object({
  id: idOf('img'),
  object: z.literal('image'),
  url: z.url(),
  alt: z.string(),
  position: z.int().min(0),
});

/** A sellable variant, identified store-wide by its SKU. */
export const Variant = z.object({
  id: idOf('var'),
  object: z.literal('variant'),
  sku: z.string(),
  title: z.string(),
  price: Decimal,
  msrp: Decimal.nullable().meta({ description: 'strikethrough price; null when the variant has none' }),
  quantity: z.int().min(0),
  barcode: z.string().nullable(),
  grams: z.int().min(0),
  asin: z.string().nullable(),
  images: z.array(z.object({ image_id: idOf('img'), url: z.url(), position: z.int().min(0) })),
  options: z
    .record(z.string(), z.string())
    .nullable()
    .meta({ description: 'option name to value; null for a variant without options' }),
});

/** A listing as summarised inside its product. */
export const ListingSummary = z.object({
  id: idOf('list'),
  channel_account_id: idOf('chac'),
  channel: z.string(),
  status: z.enum(LISTING_STATUSES),
  url_on_channel: z.url().nullable().meta({ description: 'null until the channel has the listing' }),
});

const productFields = {
  id: idOf('prod'),
  object: z.literal('product'),
  title: z.string(),
  description: z.string(),
  brand: z.string(),
  category: z.string(),
  short_description: z.string(),
  vat_rate: z.number().min(0),
  mpn: z.string(),
  weight: z.object({ value: Decimal, unit: z.string() }),
  dimensions: z.object({ length: Decimal, width: Decimal, height: Decimal, unit: z.string() }),
  tags: z.array(z.string()),
  currency: z.string().length(3),
  status: z.string(),
  sync_status: z.string(),
  images: z.array(Image).max(20),
  variants: z.array(Variant),
  listings: z.array(ListingSummary),
  created_at: Timestamp,
  updated_at: Timestamp,
};

/** A product as GET returns it, with the summaries of its listings. */
export const Product = z.object(productFields);

/** A page of products. */
export const ProductList = listOf(Product);

/** The answer to PATCH /products/{id}: the product and the `sync` block of the update. */
export const ProductWithSync = z.object({ ...productFields, sync: SyncBlock });

/** Per-channel overrides of a listing's content; only the keys a client set are present. */
export const ListingOverrides = z.object({
  title: z.string().optional(),
  description: z.string().optional(),
  category_id: z.string().optional(),
  shipping_policy_id: z.string().optional(),
  return_policy_id: z.string().optional(),
  payment_policy_id: z.string().optional(),
});

/** A channel-side problem of a listing, in plain text. */
export const ListingIssue = z.object({
  code: z.string(),
  severity: z.enum(['error', 'warning', 'info']),
  message: z.string(),
  attribute_names: z.array(z.string()),
});

/** A product published on one channel account. */
export const Listing = z.object({
  id: idOf('list'),
  object: z.literal('listing'),
  product_id: idOf('prod'),
  channel_account_id: idOf('chac'),
  channel: z.string().meta({ description: 'the base channel kind of the account' }),
  status: z.enum(LISTING_STATUSES),
  id_on_channel: z.string().nullable().meta({ description: 'null until the channel has the listing' }),
  url_on_channel: z.url().nullable().meta({ description: 'null until the channel has the listing' }),
  site: z.string(),
  overrides: ListingOverrides,
  attributes: z.record(z.string(), z.unknown()),
  variants: z.array(
    z.object({
      variant_id: idOf('var'),
      sku: z.string(),
      id_on_channel: z.string().nullable(),
      status: z.enum(['pending', 'active', 'inactive', 'error']),
    }),
  ),
  issues: z.array(ListingIssue),
  operation_id: idOf('op').nullable().meta({
    description: 'the latest write to the channel; null for a listing no write of this API touched',
  }),
  created_at: Timestamp,
  updated_at: Timestamp,
});

/** A page of listings. */
export const ListingList = listOf(Listing);

const inventoryFields = {
  object: z.literal('inventory_item'),
  sku: z.string(),
  variant_id: idOf('var'),
  product_id: idOf('prod'),
  quantity: z.int().min(0),
  price: Decimal,
  updated_at: Timestamp,
};

/** The inventory item of a SKU, as `inventory.updated` events carry it. */
export const InventoryItem = z.object(inventoryFields);

/** The answer to PATCH /inventory/{sku}: the item and the `sync` block of the update. */
export const InventoryItemWithSync = z.object({ ...inventoryFields, sync: SyncBlock });

/** The answer to POST /inventory/batch: one outcome per item, in the request's order. */
export const InventoryBatchResult = z.object({
  object: z.literal('inventory_batch_result'),
  operation_id: idOf('op'),
  data: z.array(
    z.object({
      sku: z.string(),
      status: z.enum(INVENTORY_ITEM_STATUSES),
      error: ItemError.optional().meta({
        description: 'on `failed` only; `sku_not_found` for an unknown SKU',
      }),
    }),
  ),
});

/** The answer to POST /products/batch and POST /listings/batch: each item's outcome by its index. */
export const BatchResult = z.object({
  object: z.literal('batch_result'),
  data: z.array(
    z.object({
      index: z.int().min(0).meta({ description: "the item's position in the request" }),
      status: z.enum(BATCH_ITEM_STATUSES),
      id: z.string().optional().meta({ description: 'the product or listing; absent on `failed`' }),
      error: ItemError.extend({ param: z.string().optional() })
        .optional()
        .meta({ description: 'on `failed` only' }),
    }),
  ),
});

/** A hosted file, usable in a product's images. */
export const File = z.object({
  id: idOf('file'),
  object: z.literal('file'),
  url: z.url(),
  filename: z.string().nullable().meta({ description: 'as sent; null when the upload named none' }),
  size: z.int().min(0).meta({ description: 'bytes' }),
  content_type: z.enum(['image/jpeg', 'image/png', 'image/webp']),
  created_at: Timestamp,
});
