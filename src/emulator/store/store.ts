/**
 * The emulator's state: every resource in Maps. Handlers read and change it through these
 * methods; tests use the same methods in-process to inspect state and to make changes that
 * have no route yet. The store runs no simulation: it tells listeners of new live operations,
 * and the composition root (index.ts) wires the simulations that answer them.
 */
import { channelKind } from '../channel-kinds.js';
import { type Clock, isoTime } from '../clock.js';
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
  TaxonomyRecord,
  WebhookEndpointRecord,
} from '../model.js';
import type { IdFactory } from '../rng.js';
import { Catalog } from './catalog.js';
import { IndexedMap } from './indexed-map.js';

/** A change to an order: fulfillment, payment or cancellation, or one a test makes in-process. */
export interface OrderChange {
  status?: string;
  source_status?: string;
  fulfillment_status?: string;
  tracking?: OrderRecord['tracking'];
}

/** What a store is loaded with: seed data, or a saved state. */
export interface StoreContents {
  storeId: string;
  /** Makes the ids of everything created from now on. */
  ids: IdFactory;
  accounts: ChannelAccountRecord[];
  policies: Map<string, PolicyRecord[]>;
  /** Category tree and attribute schemas per account id (accounts of one kind share a tree). */
  taxonomies: Map<string, TaxonomyRecord>;
  products: ProductRecord[];
  listings: ListingRecord[];
  orders: OrderRecord[];
  operations: OperationRecord[];
  events: EventRecord[];
  /** What only a saved state holds (a seed has none of these). */
  testOperations?: OperationRecord[];
  webhookEndpoints?: WebhookEndpointRecord[];
  files?: FileRecord[];
}

const BY_CREATED_AT = { key: (item: { created_at: string }) => item.created_at, direction: 'desc' } as const;
const OPERATION_LIST = {
  ...BY_CREATED_AT,
  fields: { status: (operation: OperationRecord) => operation.status },
};

/** The state of one emulated store. */
export class Store extends Catalog {
  /** Orders, listed by updated_at, newest first, with an index for each equality filter. */
  readonly orders = new IndexedMap<OrderRecord>({
    key: (order) => order.updated_at,
    direction: 'desc',
    fields: {
      channel_account_id: (order) => order.channel_account_id,
      channel: (order) => order.channel,
      status: (order) => order.status,
      // Normally empty: while it is, no order older than the list's cursor was created later.
      updated_before_created: (order) => (order.updated_at < order.created_at ? 'yes' : undefined),
    },
  });
  /** Operations, listed by created_at, newest first. */
  readonly operations = new IndexedMap<OperationRecord>(OPERATION_LIST);
  /** Operations created by test-key writes: visible to test keys only; nothing else changes. */
  readonly testOperations = new IndexedMap<OperationRecord>(OPERATION_LIST);
  /** Webhook endpoints, listed by created_at, newest first. */
  readonly webhookEndpoints = new IndexedMap<WebhookEndpointRecord>(BY_CREATED_AT);
  readonly files = new IndexedMap<FileRecord>(BY_CREATED_AT);
  private readonly operationListeners = new Set<(operation: OperationRecord) => void>();

  constructor(clock: Clock) {
    super(clock);
    for (const map of [
      this.orders,
      this.operations,
      this.testOperations,
      this.webhookEndpoints,
      this.files,
    ]) {
      map.journal = this.journal;
    }
  }

  /** Forget everything (before loading again). */
  clear(): void {
    this.clearCatalog();
    for (const map of this.ownLists()) {
      map.clear();
    }
  }

  /** Take in seeded or saved contents. */
  load(data: StoreContents): void {
    this.storeId = data.storeId;
    this.ids = data.ids;
    for (const account of data.accounts) this.accounts.set(account.id, account);
    for (const [id, policies] of data.policies) this.policies.set(id, policies);
    for (const [id, taxonomy] of data.taxonomies) this.taxonomies.set(id, taxonomy);
    this.loadCatalog(data.products, data.listings);
    this.orders.load(data.orders);
    this.operations.load(data.operations);
    this.testOperations.load(data.testOperations ?? []);
    this.events.load(data.events);
    this.webhookEndpoints.load(data.webhookEndpoints ?? []);
    this.files.load(data.files ?? []);
  }

  /**
   * Record an operation. A live one stays `pending` until its channels answer (the listeners
   * of onOperation schedule that); a simulated one (test key) is `succeeded` at once and kept apart.
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
      // Every field named, in one order: one shape for every result (a spread made a new one).
      results: fields.results.map((result) => ({
        channel_account_id: result.channel_account_id,
        listing_id: result.listing_id,
        sku: result.sku,
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
      this.journal.notify(() => {
        for (const listener of this.operationListeners) listener(operation);
      });
    }
    return operation;
  }

  /** Be told of every live operation created from now on (the channel simulation); returns how to stop. */
  onOperation(listener: (operation: OperationRecord) => void): () => void {
    this.operationListeners.add(listener);
    return () => this.operationListeners.delete(listener);
  }

  /**
   * Change an order and stamp its `updated_at` with `atMs`, by default now (an empty change
   * only stamps it). A new status fills in the channel's own `source_status` and emits
   * `order.status_changed` at the same instant.
   */
  updateOrder(id: string, change: OrderChange = {}, atMs = this.now()): OrderRecord | undefined {
    const order = this.orders.get(id);
    if (!order) return undefined;
    const statusChanged = change.status !== undefined && change.status !== order.status;
    this.orders.update(order, () => {
      if (change.status !== undefined) order.status = change.status;
      if (change.source_status !== undefined) order.source_status = change.source_status;
      else if (statusChanged)
        order.source_status = channelKind(order.channel).sourceStatus[order.status] ?? order.status;
      if (change.fulfillment_status !== undefined) order.fulfillment_status = change.fulfillment_status;
      if (change.tracking !== undefined) order.tracking = change.tracking;
      order.updated_at = isoTime(atMs);
    });
    if (statusChanged) this.emitEvent('order.status_changed', order, atMs);
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

  /** Set an operation's status (and anything else `change` does) with its indexes kept right. */
  changeOperation<R>(operation: OperationRecord, change: () => R): R {
    const map = this.operations.get(operation.id) === operation ? this.operations : this.testOperations;
    return map.update(operation, change);
  }

  /** A number that grows with every write to the store (a saver compares it). */
  revision(): number {
    let total = 0;
    for (const map of [this.products, this.listings, ...this.ownLists()]) total += map.revision;
    return total;
  }

  /** The indexed lists this class adds to the catalog's. */
  private ownLists(): { clear(): void; readonly revision: number }[] {
    return [
      this.orders,
      this.operations,
      this.testOperations,
      this.events,
      this.webhookEndpoints,
      this.files,
    ];
  }

  /** How many of each resource the store holds. */
  counts(): Record<string, number> {
    return {
      channel_accounts: this.accounts.size,
      products: this.products.size,
      variants: this.variantCount(),
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
