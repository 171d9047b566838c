/** The per-item answer of the product and listing batch endpoints. */
import { z } from 'zod';
import { ItemError } from './common.js';

/** Known per-item statuses of a batch; others may appear. */
export const BATCH_ITEM_STATUSES = ['created', 'updated', 'failed'] as const;

/** One item's outcome; `index` is its position in the request. */
const BatchResultItem = z.looseObject({
  index: z.number().int(),
  status: z.string(),
  id: z.string().nullish(),
  error: ItemError.nullish(),
});

/** The answer to POST /products/batch and POST /listings/batch. */
export const BatchResult = z.looseObject({
  object: z.string(),
  data: z.array(BatchResultItem),
});
export type BatchResult = z.infer<typeof BatchResult>;
