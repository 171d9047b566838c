/** Inventory by SKU: the single and batch updates and their answers. */
import { z } from 'zod';
import { BATCH_MAX_ITEMS, QUANTITY_MAX } from '../contract.js';
import { ItemError, Money, PriceInput, SyncBlock, Timestamp } from './common.js';

/** Known per-item statuses of an inventory batch; others may appear. */
export const INVENTORY_ITEM_STATUSES = ['updated', 'unchanged', 'failed'] as const;

/** A quantity a client sends: a non-negative JSON integer. */
const QuantityInput = z.int().min(0).max(QUANTITY_MAX);

/** The answer to PATCH /inventory/{sku}. */
export const InventoryItem = z.looseObject({
  object: z.string(),
  sku: z.string(),
  variant_id: z.string().nullish(),
  product_id: z.string().nullish(),
  quantity: z.number().int().nullish(),
  price: Money.nullish(),
  updated_at: Timestamp.nullish(),
  sync: SyncBlock.nullish(),
});
export type InventoryItem = z.infer<typeof InventoryItem>;

// Reported on `quantity` so that `param` names a field, as every other 400 does.
const atLeastOne = {
  message: 'send quantity, price or both',
  path: ['quantity'],
  params: { code: 'parameter_missing' },
};

// The same rule as JSON Schema says it, for docs/openapi.json.
const QUANTITY_OR_PRICE = { anyOf: [{ required: ['quantity'] }, { required: ['price'] }] };

/** The body of PATCH /inventory/{sku}: quantity, price or both; an omitted field is unchanged. */
export const InventoryUpdate = z
  .object({ quantity: QuantityInput.optional(), price: PriceInput.optional() })
  .refine((body) => body.quantity !== undefined || body.price !== undefined, atLeastOne)
  .meta(QUANTITY_OR_PRICE);
export type InventoryUpdate = z.infer<typeof InventoryUpdate>;

/** One item of POST /inventory/batch. */
export const InventoryBatchItem = z
  .object({ sku: z.string().min(1), quantity: QuantityInput.optional(), price: PriceInput.optional() })
  .refine((item) => item.quantity !== undefined || item.price !== undefined, atLeastOne)
  .meta(QUANTITY_OR_PRICE);
export type InventoryBatchItem = z.infer<typeof InventoryBatchItem>;

/** The body of POST /inventory/batch: 1 to 100 items, rejected whole if any is malformed. */
export const InventoryBatchInput = z.object({
  // Over BATCH_MAX_ITEMS is refused `batch_too_large` before the items are read; the bound is for docs/openapi.json.
  items: z.array(InventoryBatchItem).min(1).meta({ maxItems: BATCH_MAX_ITEMS }),
});
export type InventoryBatchInput = z.infer<typeof InventoryBatchInput>;

/** The answer to POST /inventory/batch: one outcome per SKU. */
export const InventoryBatchResult = z.looseObject({
  object: z.string(),
  operation_id: z.string().nullish(),
  data: z.array(
    z.looseObject({
      sku: z.string(),
      status: z.string(),
      error: ItemError.nullish(),
    }),
  ),
});
export type InventoryBatchResult = z.infer<typeof InventoryBatchResult>;
