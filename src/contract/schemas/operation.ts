/** Operations: the asynchronous propagation of a write to channels. */
import { z } from 'zod';
import { ItemError, Timestamp } from './common.js';

/** Known per-channel result statuses; others may appear. */
export const OPERATION_RESULT_STATUSES = [
  'pending',
  'processing',
  'succeeded',
  'failed',
  'simulated',
] as const;

/** The outcome of an operation on one channel account. */
export const OperationResult = z.looseObject({
  channel_account_id: z.string().nullish(),
  listing_id: z.string().nullish(),
  sku: z.string().nullish(),
  status: z.string(),
  error: ItemError.nullish(),
});
export type OperationResult = z.infer<typeof OperationResult>;

/** An operation as GET returns it. */
export const Operation = z.looseObject({
  id: z.string(),
  object: z.string(),
  type: z.string().nullish(),
  status: z.string(),
  resource_type: z.string().nullish(),
  resource_id: z.string().nullish(),
  results: z.array(OperationResult).nullish(),
  created_at: Timestamp,
  completed_at: Timestamp.nullish(),
});
export type Operation = z.infer<typeof Operation>;
