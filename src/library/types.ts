/**
 * The types of the library, inferred from the endpoint table's zod schemas: what each
 * operation answers (tolerant: unknown fields kept, unknown enum values taken as strings),
 * what each list filters on, and what each write takes.
 */
import type { z } from 'zod';
import type { ResultOf } from '../client/call.js';
import type { OPERATIONS } from '../contract/operations.js';

type Operations = typeof OPERATIONS;
type Answer<K extends keyof Operations> = ResultOf<Operations[K]>;
type BodyOf<K extends keyof Operations> = Operations[K] extends { body: infer B extends z.ZodType }
  ? z.input<B>
  : never;
/** The filters of a list, as the API names them. */
type FiltersOf<K extends keyof Operations> = Operations[K] extends { query: infer Q extends z.ZodType }
  ? Omit<z.input<Q>, 'cursor' | 'limit'>
  : never;

export type Product = Answer<'getProduct'>;
export type Listing = Answer<'getListing'>;
export type Order = Answer<'getOrder'>;
export type Operation = Answer<'getOperation'>;
export type Event = Answer<'listEvents'>;
export type WebhookEndpoint = Answer<'getWebhookEndpoint'>;
export type ChannelAccount = Answer<'getChannelAccount'>;
export type ChannelAccountSummary = Answer<'listChannelAccounts'>;
export type Policy = Answer<'listPolicies'>;
export type Category = Answer<'listCategories'>;
export type AttributeSchema = Answer<'getAttributeSchema'>;
export type UploadedFile = Answer<'uploadFile'>;
export type InventoryItem = Answer<'updateInventory'>;
export type InventoryBatchResult = Answer<'batchInventory'>;
export type BatchResult = Answer<'batchProducts'>;
export type Deleted = Answer<'deleteProduct'>;
export type DeletedWebhookEndpoint = Answer<'deleteWebhookEndpoint'>;
export type Status = Answer<'getStatus'>;
export type Health = Answer<'getHealth'>;

export type ProductFilters = FiltersOf<'listProducts'>;
export type ListingFilters = FiltersOf<'listListings'>;
export type OrderFilters = FiltersOf<'listOrders'>;
export type OperationFilters = FiltersOf<'listOperations'>;
export type EventFilters = FiltersOf<'listEvents'>;
export type CategoryFilters = FiltersOf<'listCategories'>;

export type ProductInput = BodyOf<'createProduct'>;
export type ProductUpdate = BodyOf<'updateProduct'>;
export type ListingInput = BodyOf<'createListing'>;
export type ListingUpdate = BodyOf<'updateListing'>;
export type InventoryUpdate = BodyOf<'updateInventory'>;
export type InventoryBatchItem = BodyOf<'batchInventory'>['items'][number];
export type FileInput = BodyOf<'uploadFile'>;
export type WebhookEndpointInput = BodyOf<'createWebhookEndpoint'>;
export type WebhookEndpointUpdate = BodyOf<'updateWebhookEndpoint'>;

/** Options of every write. */
export interface WriteOptions {
  /** The write's Idempotency-Key; by default one is made for it and sent with each retry of it. */
  idempotencyKey?: string;
  /** Stops the write: none starts after it aborts (one in flight gets a short grace to land). */
  signal?: AbortSignal;
}

/** Options of every read. */
export interface ReadOptions {
  signal?: AbortSignal;
}

export type { BulkProgress } from '../core/bulk-run.js';
export type { BulkResult, BulkTotals } from '../core/bulk-stopped.js';
export type { BulkSummary, ItemOutcome, ItemStatus } from '../core/outcomes.js';
export type { PushOptions, StockRow } from './inventory-push.js';
export type { PublishAllOptions } from './listings-publish.js';
export type { RetryOptions } from './listings-retry.js';
export type { FulfillAllOptions, ShipmentInput } from './orders-fulfill.js';
export type { UpsertOptions } from './products-upsert.js';
