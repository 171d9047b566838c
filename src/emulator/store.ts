/**
 * The emulator's state: every resource in Maps, seeded deterministically, resettable.
 * Handlers read and change it through these methods; tests use the same methods
 * in-process to inspect state and to make changes that have no route yet.
 */
import { channelKind } from './channel-kinds.js';
import { ChannelSimulation } from './channels.js';
import { type Clock, isoTime } from './clock.js';
import type {
  ChannelAccountRecord,
  EventRecord,
  FileRecord,
  ListingRecord,
  OperationRecord,
  OperationResultRecord,
  OrderRecord,
  PolicyRecord,
  ProductRecord,
  SkuLocation,
  VariantRecord,
  WebhookEndpointRecord,
} from './model.js';
import { OrderArrivals } from './order-arrivals.js';
import type { IdFactory } from './rng.js';
import { seedData } from './seed.js';
import type { SeededTaxonomy } from './seed-accounts.js';
import { EVENT_API_VERSION } from './seed-activity.js';
import { type InventoryItemView, inventoryItem, type ProductView, productView, snapshot } from './views.js';

/** How long after seeding the seeded operations still under way take to end. */
const SEEDED_WORK_MS = 60_000;

/** How the store seeds itself. */
export interface StoreOptions {
  seed: number;
  products: number;
  orders: number;
  clock: Clock;
  /** How long a live write's operation stays pending before its channels answer. */
  channelDelayMs: number;
  /** Share (0 to 1) of channel calls throttled with `channel_rate_limited` (retried with backoff); default 0. */
  channelRateLimitShare?: number;
  /** Share (0 to 1) of channel calls that fail outright with `channel_error`; default 0. */
  channelFailureShare?: number;
  /** New orders arriving from the channels per minute, on average; default 0 (none). */
  orderArrivalPerMinute?: number;
}

/** A change to an order made in-process (fulfillment and order arrival come with later routes). */
export interface OrderChange {
  status?: string;
  source_status?: string;
  fulfillment_status?: string;
  tracking?: OrderRecord['tracking'];
}

/** What setting a SKU's quantity and price did. */
export interface InventoryChange {
  changed: boolean;
  item: InventoryItemView;
  product: ProductRecord;
  variant: VariantRecord;
}

/** The state of one emulated store. */
export class Store {
  readonly clock: Clock;
  readonly options: StoreOptions;
  storeId = '';
  ids!: IdFactory;
  readonly accounts = new Map<string, ChannelAccountRecord>();
  readonly policies = new Map<string, PolicyRecord[]>();
  readonly taxonomies = new Map<string, SeededTaxonomy>();
  readonly products = new Map<string, ProductRecord>();
  readonly listings = new Map<string, ListingRecord>();
  readonly orders = new Map<string, OrderRecord>();
  readonly operations = new Map<string, OperationRecord>();
  /** Operations created by test-key writes: visible to test keys only; nothing else changes. */
  readonly testOperations = new Map<string, OperationRecord>();
  readonly events = new Map<string, EventRecord>();
  readonly webhookEndpoints = new Map<string, WebhookEndpointRecord>();
  readonly files = new Map<string, FileRecord>();
  private readonly skus = new Map<string, SkuLocation>();
  private readonly listingIdsByProduct = new Map<string, Set<string>>();
  /** Live operations' channel calls, answered as the clock passes their due times. */
  readonly channels: ChannelSimulation;
  /** New orders arriving over time (`orderArrivalPerMinute`); `arrivals.arrive(now)` makes one arrive at once. */
  readonly arrivals: OrderArrivals;
  private readonly seededAt: number;
  /** Seeded operations still under way, finished by finishSeededWork(). */
  private seededOpen: string[] = [];
  private seededWorkDone = false;
  private readonly eventListeners = new Set<(event: EventRecord) => void>();

  constructor(options: StoreOptions) {
    this.options = options;
    this.clock = options.clock;
    this.seededAt = options.clock.now();
    this.channels = new ChannelSimulation(this, {
      seed: options.seed,
      delayMs: options.channelDelayMs,
      rateLimitShare: options.channelRateLimitShare ?? 0,
      failureShare: options.channelFailureShare ?? 0,
    });
    this.arrivals = new OrderArrivals(this, {
      perMinute: options.orderArrivalPerMinute ?? 0,
      seed: options.seed,
      startMs: this.seededAt,
    });
    this.load();
  }

  /** Back to the seeded state (same ids, same timestamps as at start). */
  reset(): void {
    for (const map of [
      this.accounts,
      this.policies,
      this.taxonomies,
      this.products,
      this.listings,
      this.orders,
      this.operations,
      this.testOperations,
      this.events,
      this.webhookEndpoints,
      this.files,
      this.skus,
      this.listingIdsByProduct,
    ]) {
      map.clear();
    }
    this.channels.clear();
    this.arrivals.reset();
    this.seededOpen = [];
    this.seededWorkDone = false;
    this.load();
  }

  private load(): void {
    const data = seedData({ ...this.options, now: this.seededAt });
    this.storeId = data.storeId;
    this.ids = data.ids;
    for (const account of data.accounts) this.accounts.set(account.id, account);
    for (const [id, policies] of data.policies) this.policies.set(id, policies);
    for (const [id, taxonomy] of data.taxonomies) this.taxonomies.set(id, taxonomy);
    for (const product of data.products) this.putProduct(product);
    for (const listing of data.listings) this.putListing(listing);
    for (const order of data.orders) this.orders.set(order.id, order);
    for (const operation of data.operations) {
      this.operations.set(operation.id, operation);
      if (operation.status === 'pending' || operation.status === 'processing')
        this.seededOpen.push(operation.id);
    }
    for (const event of data.events) this.events.set(event.id, event);
  }

  /** The clock's time now. */
  now(): number {
    return this.clock.now();
  }

  /** Add or replace a product and index its SKUs. */
  putProduct(product: ProductRecord): void {
    const previous = this.products.get(product.id);
    if (previous) for (const variant of previous.variants) this.skus.delete(variant.sku);
    this.products.set(product.id, product);
    for (const variant of product.variants) {
      this.skus.set(variant.sku, { productId: product.id, variantId: variant.id });
    }
  }

  /** Remove a product and unindex its SKUs (its listings stay, for their own history). */
  removeProduct(id: string): ProductRecord | undefined {
    const product = this.products.get(id);
    if (!product) return undefined;
    for (const variant of product.variants) this.skus.delete(variant.sku);
    this.products.delete(id);
    return product;
  }

  /** Add or replace a listing and index it under its product. */
  putListing(listing: ListingRecord): void {
    this.listings.set(listing.id, listing);
    let ids = this.listingIdsByProduct.get(listing.product_id);
    if (!ids) {
      ids = new Set();
      this.listingIdsByProduct.set(listing.product_id, ids);
    }
    ids.add(listing.id);
  }

  /** The listings of a product. */
  listingsOf(productId: string): ListingRecord[] {
    const ids = this.listingIdsByProduct.get(productId);
    if (!ids) return [];
    const listings: ListingRecord[] = [];
    for (const id of ids) {
      const listing = this.listings.get(id);
      if (listing) listings.push(listing);
    }
    return listings;
  }

  /** A product as GET returns it, with its listing summaries. */
  productView(product: ProductRecord): ProductView {
    return productView(product, this.listingsOf(product.id));
  }

  /** The product and variant of a SKU. */
  locateSku(sku: string): { product: ProductRecord; variant: VariantRecord } | undefined {
    const location = this.skus.get(sku);
    if (!location) return undefined;
    const product = this.products.get(location.productId);
    const variant = product?.variants.find((candidate) => candidate.id === location.variantId);
    return product && variant ? { product, variant } : undefined;
  }

  /** A SKU's quantity and price as an inventory item; undefined for an unknown SKU. */
  inventoryBySku(sku: string): InventoryItemView | undefined {
    const located = this.locateSku(sku);
    return located ? inventoryItem(located.product, located.variant, located.product.updated_at) : undefined;
  }

  /** Every SKU in the store. */
  allSkus(): string[] {
    return [...this.skus.keys()];
  }

  /**
   * Set a SKU's quantity and/or price. With `simulate`, answer what would happen and change
   * nothing (test keys). Throws nothing; an unknown SKU gives undefined.
   */
  setInventory(
    sku: string,
    change: { quantity?: number; price?: string },
    options: { simulate?: boolean } = {},
  ): InventoryChange | undefined {
    const located = this.locateSku(sku);
    if (!located) return undefined;
    const { product, variant } = located;
    const quantity = change.quantity ?? variant.quantity;
    const price = change.price ?? variant.price;
    const changed = quantity !== variant.quantity || price !== variant.price;
    if (options.simulate || !changed) {
      const updatedAt = changed ? isoTime(this.now()) : product.updated_at;
      return {
        changed,
        product,
        variant,
        item: inventoryItem(product, { ...variant, quantity, price }, updatedAt),
      };
    }
    variant.quantity = quantity;
    variant.price = price;
    product.updated_at = isoTime(this.now());
    const item = inventoryItem(product, variant, product.updated_at);
    this.emitEvent('inventory.updated', item);
    return { changed, product, variant, item };
  }

  /** The accounts a product's stock propagates to: listed there, with inventory control on. */
  inventoryTargets(productId: string): ListingRecord[] {
    return this.listingsOf(productId).filter((listing) => {
      const account = this.accounts.get(listing.channel_account_id);
      const live =
        listing.status === 'listed' || listing.status === 'imported' || listing.status === 'ongoing';
      return live && account?.inventory.control === true;
    });
  }

  /**
   * Record an operation. A live one stays `pending` until its channels answer after the
   * channel delay; a simulated one (test key) is `succeeded` at once and kept apart.
   */
  createOperation(
    fields: Pick<OperationRecord, 'type' | 'resource_type' | 'resource_id'> & {
      results: Omit<OperationResultRecord, 'status' | 'error'>[];
    },
    options: { simulate?: boolean } = {},
  ): OperationRecord {
    const nowIso = isoTime(this.now());
    const operation: OperationRecord = {
      id: this.ids.next('op'),
      object: 'operation',
      type: fields.type,
      status: options.simulate ? 'succeeded' : 'pending',
      resource_type: fields.resource_type,
      resource_id: fields.resource_id,
      results: fields.results.map((result) => ({
        ...result,
        status: options.simulate ? 'simulated' : 'pending',
        error: null,
      })),
      created_at: nowIso,
      completed_at: options.simulate ? nowIso : null,
    };
    if (options.simulate) {
      this.testOperations.set(operation.id, operation);
    } else {
      this.operations.set(operation.id, operation);
      this.channels.schedule(operation, this.now());
    }
    return operation;
  }

  /**
   * Answer the channel calls whose time has come (called before each request): operations
   * go `processing`, then `succeeded`, `partial` or `failed`; listings follow (channels.ts).
   */
  settle(): void {
    this.channels.advance(this.now());
    this.arrivals.advance(this.now());
    this.finishSeededWork();
  }

  /**
   * Seeded operations still `pending` or `processing` end a minute after the store was seeded,
   * so that `svc operations wait` on one returns. They are history, so no event is emitted.
   */
  private finishSeededWork(): void {
    const doneAt = this.seededAt + SEEDED_WORK_MS;
    if (this.seededWorkDone || this.now() < doneAt) return;
    this.seededWorkDone = true;
    for (const id of this.seededOpen) {
      const operation = this.operations.get(id);
      if (!operation || (operation.status !== 'pending' && operation.status !== 'processing')) continue;
      for (const result of operation.results) {
        if (result.status === 'pending' || result.status === 'processing') result.status = 'succeeded';
      }
      operation.status = 'succeeded';
      operation.completed_at = isoTime(doneAt);
    }
  }

  /** Append an event with a snapshot of `object` as GET would return it now. */
  emitEvent(type: string, object: unknown, atMs = this.now()): EventRecord {
    const event: EventRecord = {
      id: this.ids.next('evt'),
      object: 'event',
      type,
      api_version: EVENT_API_VERSION,
      store_id: this.storeId,
      created_at: isoTime(atMs),
      data: { object: snapshot(object) },
    };
    this.events.set(event.id, event);
    for (const listener of this.eventListeners) listener(event);
    return event;
  }

  /** Be told of every event emitted from now on (webhook deliveries); returns how to stop. */
  onEvent(listener: (event: EventRecord) => void): () => void {
    this.eventListeners.add(listener);
    return () => this.eventListeners.delete(listener);
  }

  /**
   * Change an order in-process and stamp its `updated_at` (an empty change only stamps it).
   * A new status fills in the channel's own `source_status` and emits `order.status_changed`.
   */
  updateOrder(id: string, change: OrderChange = {}): OrderRecord | undefined {
    const order = this.orders.get(id);
    if (!order) return undefined;
    const statusChanged = change.status !== undefined && change.status !== order.status;
    if (change.status !== undefined) order.status = change.status;
    if (change.source_status !== undefined) order.source_status = change.source_status;
    else if (statusChanged)
      order.source_status = channelKind(order.channel).sourceStatus[order.status] ?? order.status;
    if (change.fulfillment_status !== undefined) order.fulfillment_status = change.fulfillment_status;
    if (change.tracking !== undefined) order.tracking = change.tracking;
    order.updated_at = isoTime(this.now());
    if (statusChanged) this.emitEvent('order.status_changed', order);
    return order;
  }

  /**
   * Add an order that just arrived from a channel: emits `order.created` and, when its account
   * takes quantity from orders, lowers the stock of each line's SKU (never below zero).
   */
  addOrder(order: OrderRecord): void {
    this.orders.set(order.id, order);
    this.emitEvent('order.created', order, Date.parse(order.created_at));
    if (!this.accounts.get(order.channel_account_id)?.sync.quantity_from_orders) return;
    for (const line of order.lines) {
      const located = this.locateSku(line.sku);
      if (!located) continue;
      this.setInventory(line.sku, { quantity: Math.max(0, located.variant.quantity - line.quantity) });
    }
  }

  /** How many of each resource the store holds. */
  counts(): Record<string, number> {
    return {
      channel_accounts: this.accounts.size,
      products: this.products.size,
      variants: this.skus.size,
      listings: this.listings.size,
      orders: this.orders.size,
      operations: this.operations.size,
      test_operations: this.testOperations.size,
      events: this.events.size,
      webhook_endpoints: this.webhookEndpoints.size,
      files: this.files.size,
    };
  }
}
