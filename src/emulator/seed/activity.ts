/** Seeded operations (every status, per-channel results) and events (every type, last 30 days). */
import { EVENT_TYPES } from '../../contract/contract.js';
import { isoTime } from '../clock.js';
import type { EventRecord, ListingRecord, OperationRecord, OrderRecord, ProductRecord } from '../model.js';
import { EVENT_API_VERSION } from '../store/event-log.js';
import { inventoryItem, productView, snapshot } from '../store/views.js';
import type { SeededAccount } from './accounts.js';
import { DAY_MS, MINUTE_MS, type SeedContext, timeBetween } from './context.js';

/** The most seeded inventory pushes (half the products up to this many). */
const MAX_SEEDED_PUSHES = 5_000;

/** Operations behind the ongoing and failed listings, plus extra ones so every status shows. */
export function seedOperations(
  ctx: SeedContext,
  listings: ListingRecord[],
  products: ProductRecord[],
  accounts: SeededAccount[],
): OperationRecord[] {
  const { rng, ids } = ctx;
  const operations: OperationRecord[] = [];
  for (const listing of listings) {
    if (listing.status !== 'ongoing' && listing.status !== 'error') continue;
    const createdMs = Date.parse(listing.updated_at);
    const failed = listing.status === 'error';
    const firstError = listing.issues.find((issue) => issue.severity === 'error') ?? listing.issues[0];
    const operation: OperationRecord = {
      id: ids.next('op'),
      object: 'operation',
      type: listing.id_on_channel ? 'listing.update' : 'listing.publish',
      status: failed ? 'failed' : rng.chance(0.5) ? 'pending' : 'processing',
      resource_type: 'listing',
      resource_id: listing.id,
      results: [
        {
          channel_account_id: listing.channel_account_id,
          listing_id: listing.id,
          sku: null,
          status: failed ? 'failed' : 'pending',
          error: failed && firstError ? { code: firstError.code, message: firstError.message } : null,
        },
      ],
      created_at: listing.updated_at,
      completed_at: failed ? isoTime(Math.min(ctx.now, createdMs + rng.int(1, 20) * MINUTE_MS)) : null,
    };
    listing.operation_id = operation.id;
    operations.push(operation);
  }
  // Inventory pushes across accounts, cycling through every status.
  const statuses = ['succeeded', 'partial', 'failed', 'pending', 'processing', 'succeeded', 'succeeded'];
  // A store's recent pushes do not grow with its catalog: a million-SKU store keeps a few thousand.
  const extra = Math.max(statuses.length * 3, Math.min(MAX_SEEDED_PUSHES, Math.ceil(products.length / 2)));
  for (let index = 0; index < extra && products.length > 0; index++) {
    const status = statuses[index % statuses.length];
    const product = rng.pick(products);
    const variant = rng.pick(product.variants);
    const createdMs = timeBetween(ctx, ctx.now - 45 * DAY_MS, ctx.now - MINUTE_MS, 2);
    const targets = accounts.filter(() => rng.chance(0.6));
    if (targets.length === 0) targets.push(accounts[0]);
    // A partial result needs one failed and one succeeded account.
    if (status === 'partial' && targets.length === 1)
      targets.push(accounts.find((a) => a !== targets[0]) ?? targets[0]);
    const results = targets.map(({ account }, position) => {
      const resultStatus =
        status === 'partial'
          ? position === 0
            ? 'failed'
            : 'succeeded'
          : status === 'processing'
            ? position === 0
              ? 'succeeded'
              : 'pending'
            : status === 'failed'
              ? 'failed'
              : status === 'pending'
                ? 'pending'
                : 'succeeded';
      return {
        channel_account_id: account.id,
        listing_id: null,
        sku: variant.sku,
        status: resultStatus,
        error:
          resultStatus === 'failed'
            ? {
                code: 'channel_rate_limited',
                message: `${account.label} throttled the update; it was retried with backoff until it gave up.`,
              }
            : null,
      };
    });
    const terminal = status === 'succeeded' || status === 'partial' || status === 'failed';
    operations.push({
      id: ids.next('op'),
      object: 'operation',
      type: index % 2 === 0 ? 'inventory.update' : 'inventory.batch_update',
      status,
      resource_type: 'inventory',
      resource_id: variant.sku,
      results,
      created_at: isoTime(createdMs),
      completed_at: terminal ? isoTime(Math.min(ctx.now, createdMs + rng.int(1, 30) * MINUTE_MS)) : null,
    });
  }
  return operations;
}

/** Inputs the event seeding takes snapshots of. */
export interface EventSources {
  storeId: string;
  products: ProductRecord[];
  listings: ListingRecord[];
  listingsByProduct: Map<string, ListingRecord[]>;
  orders: OrderRecord[];
  operations: OperationRecord[];
}

/** `count` events cycling through every type, spread over the last 30 days. */
export function seedEvents(ctx: SeedContext, count: number, sources: EventSources): EventRecord[] {
  const { rng, ids } = ctx;
  const terminal = sources.operations.filter((operation) => operation.completed_at !== null);
  const events: EventRecord[] = [];
  for (let index = 0; index < count; index++) {
    const type = EVENT_TYPES[index % EVENT_TYPES.length];
    const object = eventObject(ctx, type, sources, terminal);
    if (object === undefined) continue;
    events.push({
      id: ids.next('evt'),
      object: 'event',
      type,
      api_version: EVENT_API_VERSION,
      store_id: sources.storeId,
      created_at: isoTime(timeBetween(ctx, ctx.now - 30 * DAY_MS + MINUTE_MS, ctx.now - 1000)),
      data: { object: snapshot(object) },
    });
  }
  return events;

  function eventObject(
    _ctx: SeedContext,
    type: string,
    src: EventSources,
    completed: OperationRecord[],
  ): unknown | undefined {
    switch (type) {
      case 'order.created':
      case 'order.status_changed':
        return src.orders.length > 0 ? rng.pick(src.orders) : undefined;
      case 'product.updated':
      case 'product.deleted': {
        if (src.products.length === 0) return undefined;
        const product = rng.pick(src.products);
        const view = productView(product, src.listingsByProduct.get(product.id) ?? []);
        // A deleted product is no longer in the store: give its snapshot an id of its own.
        return type === 'product.deleted' ? { ...view, id: ids.next('prod'), listings: [] } : view;
      }
      case 'inventory.updated': {
        if (src.products.length === 0) return undefined;
        const product = rng.pick(src.products);
        return inventoryItem(product, rng.pick(product.variants), product.updated_at);
      }
      case 'listing.status_changed':
        return src.listings.length > 0 ? rng.pick(src.listings) : undefined;
      default:
        return completed.length > 0 ? rng.pick(completed) : undefined;
    }
  }
}
