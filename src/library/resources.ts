/**
 * The library's resources: one method per operation of the endpoint table, each a call of
 * `client.call(operation, params)` on the same client, resources and pager the CLI's commands use.
 */
import type { AnyCallParams } from '../client/call.js';
import type { PagedList } from '../client/paginate.js';
import type { Endpoint, OperationId } from '../contract/operations.js';
import type { Connected } from './connect.js';
import { List } from './list.js';
import type * as T from './types.js';

/** The connected client and the endpoint table, loaded on first use (not when the package is imported). */
export type Connection = () => Promise<Connected & { operations: Readonly<Record<OperationId, Endpoint>> }>;

type UntypedCall = (operation: Endpoint, params: AnyCallParams) => unknown;

/** One request of an operation, once connected. */
async function send<R>(connection: Connection, id: OperationId, params: AnyCallParams): Promise<R> {
  const { client, operations } = await connection();
  return (await (client.call as UntypedCall).call(client, operations[id], params)) as R;
}

/** A paged list of an operation, crawled when read. */
function crawl<R>(connection: Connection, id: OperationId, params: AnyCallParams): List<R> {
  return new List<R>(async (limit, onPage) => {
    const { client, operations } = await connection();
    // A crawl read to its end (every item, or all of `first(n)`) asks for each page while the last is checked.
    const crawlParams: AnyCallParams = { ...params, limit: limit ?? 'all', onPage, readAhead: true };
    return (client.call as UntypedCall).call(client, operations[id], crawlParams) as PagedList<R>;
  });
}

/** The body of a fulfillment (a tracking URL only when there is one), as the CLI sends it. */
function fulfillmentBody(number: string, carrier: string, url: string | undefined) {
  return { tracking: url === undefined ? { number, carrier } : { number, carrier, url } };
}

/** Something a resource acts on, by id. */
abstract class Resource {
  /** @internal */
  constructor(protected readonly connection: Connection) {}
}

/** Products with their variants, images and listing summaries. */
export class Products extends Resource {
  /** The products, updated_at descending. */
  list(filters: T.ProductFilters = {}, options: T.ReadOptions = {}): List<T.Product> {
    return crawl(this.connection, 'listProducts', { query: filters, ...options });
  }
  get(id: string, options: T.ReadOptions = {}): Promise<T.Product> {
    return send(this.connection, 'getProduct', { id, ...options });
  }
  /** Not repeated blindly after an ambiguous failure (it could create a twin): that raises an SvcError. */
  create(input: T.ProductInput, options: T.WriteOptions = {}): Promise<T.Product> {
    return send(this.connection, 'createProduct', { body: input, ...options });
  }
  update(id: string, change: T.ProductUpdate, options: T.WriteOptions = {}): Promise<T.Product> {
    return send(this.connection, 'updateProduct', { id, body: change, ...options });
  }
  delete(id: string, options: T.WriteOptions = {}): Promise<T.Deleted> {
    return send(this.connection, 'deleteProduct', { id, ...options });
  }
  /**
   * Upserts every product (or every product of a JSON, JSON Lines or CSV file) as `svc products
   * upsert` does: the whole input checked first (a bad product throws an SvcError, nothing
   * sent), chunks of 100, a lost answer read back rather than guessed. Resolves with one outcome
   * per product and the totals; a stop on the write quota or the signal throws BulkStopped.
   */
  async upsertAll(
    input: readonly T.ProductInput[] | string,
    options: T.UpsertOptions = {},
  ): Promise<T.BulkResult> {
    const connected = await this.connection();
    const { upsertAll } = await import('./products-upsert.js');
    return upsertAll(connected, input, options);
  }
  /** Creates or updates up to 100 products, matched by variant SKU; one outcome per item. */
  upsert(items: T.ProductInput[], options: T.WriteOptions = {}): Promise<T.BatchResult> {
    const repeatable = items.every((item) => (item.variants?.length ?? 0) > 0);
    return send(this.connection, 'batchProducts', { body: { items }, repeatable, ...options });
  }
}

/** Listings: a product published on one channel account. */
export class Listings extends Resource {
  list(filters: T.ListingFilters = {}, options: T.ReadOptions = {}): List<T.Listing> {
    return crawl(this.connection, 'listListings', { query: filters, ...options });
  }
  get(id: string, options: T.ReadOptions = {}): Promise<T.Listing> {
    return send(this.connection, 'getListing', { id, ...options });
  }
  /** Publishes a product on an account: `ongoing`, with the operation that carries it. */
  create(input: T.ListingInput, options: T.WriteOptions = {}): Promise<T.Listing> {
    return send(this.connection, 'createListing', { body: input, ...options });
  }
  /**
   * Publishes every listing (given as data, or a JSON or JSON Lines file of them) as `svc
   * listings publish --file` does: the whole input checked first, the accounts it names checked,
   * a listing already published skipped. Resolves with one outcome per listing and the totals;
   * a stop on the write quota or the signal throws BulkStopped.
   */
  async publishAll(
    input: readonly T.ListingInput[] | string,
    options: T.PublishAllOptions = {},
  ): Promise<T.BulkResult> {
    const connected = await this.connection();
    const { publishAll } = await import('./listings-publish.js');
    return publishAll(connected, input, options);
  }
  /** Publishes up to 100 listings; one outcome per item. */
  createBatch(items: T.ListingInput[], options: T.WriteOptions = {}): Promise<T.BatchResult> {
    return send(this.connection, 'batchListings', { body: { items }, ...options });
  }
  update(id: string, change: T.ListingUpdate, options: T.WriteOptions = {}): Promise<T.Listing> {
    return send(this.connection, 'updateListing', { id, body: change, ...options });
  }
  /**
   * Retries the listings in error with `errorCode` as `svc listings retry` does: every one
   * collected first, those whose cause looks unchanged held back as `unfixed` (unless
   * `includeUnfixed`), each other one resynced once. Resolves with one outcome per listing
   * found and the totals; a stop on the write quota or the signal throws BulkStopped.
   */
  async retry(options: T.RetryOptions): Promise<T.BulkResult> {
    const connected = await this.connection();
    const { retryFailing } = await import('./listings-retry.js');
    return retryFailing(connected, options);
  }
  /** A plain resync: an update that changes nothing. */
  resync(id: string, options: T.WriteOptions = {}): Promise<T.Listing> {
    return this.update(id, {}, options);
  }
  /** Delists: `ongoing` now, `delisted` when its operation succeeds. */
  delete(id: string, options: T.WriteOptions = {}): Promise<T.Listing> {
    return send(this.connection, 'deleteListing', { id, ...options });
  }
}

/** Quantity and price by SKU (absolute, so a repeat is safe). */
export class Inventory extends Resource {
  set(sku: string, change: T.InventoryUpdate, options: T.WriteOptions = {}): Promise<T.InventoryItem> {
    return send(this.connection, 'updateInventory', { sku, body: change, ...options });
  }
  /** Sets up to 100 SKUs in one request; an unknown SKU fails alone. */
  setBatch(items: T.InventoryBatchItem[], options: T.WriteOptions = {}): Promise<T.InventoryBatchResult> {
    return send(this.connection, 'batchInventory', { body: { items }, ...options });
  }

  /**
   * Pushes every row (or every row of a CSV file) as `svc inventory push` does: the whole input
   * checked first (a bad row throws an SvcError, nothing sent), batches of up to 100 as fast as
   * the rate limit allows, each confirmed batch journaled so that `resume: true` after a stop
   * sends only the rest, a push that would zero more than 20% of its SKUs refused unless
   * `allowZeroing`. Resolves with one outcome per row and the totals; a stop on the write quota,
   * the rate limit or the signal throws BulkStopped (an SvcError) holding the result so far.
   */
  async push(input: readonly T.StockRow[] | string, options: T.PushOptions = {}): Promise<T.BulkResult> {
    const connected = await this.connection();
    const { pushInventory } = await import('./inventory-push.js');
    return pushInventory(connected, input, options);
  }
}

/** The tracking of a fulfillment. */
export interface Fulfillment extends T.WriteOptions {
  carrier: string;
  trackingNumber: string;
  trackingUrl?: string;
}

/** Orders from every channel in one shape. */
export class Orders extends Resource {
  list(filters: T.OrderFilters = {}, options: T.ReadOptions = {}): List<T.Order> {
    return crawl(this.connection, 'listOrders', { query: filters, ...options });
  }
  get(id: string, options: T.ReadOptions = {}): Promise<T.Order> {
    return send(this.connection, 'getOrder', { id, ...options });
  }
  /**
   * Marks an order shipped. Not repeated blindly: an ambiguous failure raises an SvcError
   * (`code` `ambiguous_write`); read the order back before trying again.
   */
  fulfill(id: string, { carrier, trackingNumber, trackingUrl, ...options }: Fulfillment): Promise<T.Order> {
    const body = fulfillmentBody(trackingNumber, carrier, trackingUrl);
    return send(this.connection, 'fulfillOrder', { id, body, ...options });
  }

  /**
   * Marks every shipment's order shipped (given as data, or a CSV file of order_id,
   * tracking_number, carrier, tracking_url) as `svc orders fulfill --file` does: the whole input
   * checked first, channel order numbers resolved to orders, an order already shipped with the
   * same tracking skipped. Resolves with one outcome per shipment and the totals; a stop on the
   * rate limit or the signal throws BulkStopped.
   */
  async fulfillAll(
    input: readonly T.ShipmentInput[] | string,
    options: T.FulfillAllOptions = {},
  ): Promise<T.BulkResult> {
    const connected = await this.connection();
    const { fulfillAll } = await import('./orders-fulfill.js');
    return fulfillAll(connected, input, options);
  }
}

/** Asynchronous operations: how a write propagated to each channel. */
export class Operations extends Resource {
  list(filters: T.OperationFilters = {}, options: T.ReadOptions = {}): List<T.Operation> {
    return crawl(this.connection, 'listOperations', { query: filters, ...options });
  }
  get(id: string, options: T.ReadOptions = {}): Promise<T.Operation> {
    return send(this.connection, 'getOperation', { id, ...options });
  }
}

/** The event log of the last 30 days. */
export class Events extends Resource {
  list(filters: T.EventFilters = {}, options: T.ReadOptions = {}): List<T.Event> {
    return crawl(this.connection, 'listEvents', { query: filters, ...options });
  }
}

/** Where the service delivers events. */
export class Webhooks extends Resource {
  list(options: T.ReadOptions = {}): List<T.WebhookEndpoint> {
    return crawl(this.connection, 'listWebhookEndpoints', { ...options });
  }
  get(id: string, options: T.ReadOptions = {}): Promise<T.WebhookEndpoint> {
    return send(this.connection, 'getWebhookEndpoint', { id, ...options });
  }
  /** The answer is the only one that carries the signing secret. */
  create(input: T.WebhookEndpointInput, options: T.WriteOptions = {}): Promise<T.WebhookEndpoint> {
    return send(this.connection, 'createWebhookEndpoint', { body: input, ...options });
  }
  update(
    id: string,
    change: T.WebhookEndpointUpdate,
    options: T.WriteOptions = {},
  ): Promise<T.WebhookEndpoint> {
    return send(this.connection, 'updateWebhookEndpoint', { id, body: change, ...options });
  }
  delete(id: string, options: T.WriteOptions = {}): Promise<T.DeletedWebhookEndpoint> {
    return send(this.connection, 'deleteWebhookEndpoint', { id, ...options });
  }
}

/** The connected channel accounts and their discovery data. */
export class Channels extends Resource {
  /** Every account, in one page. */
  list(options: T.ReadOptions = {}): Promise<T.ChannelAccountSummary[]> {
    return send(this.connection, 'listChannelAccounts', { ...options });
  }
  get(id: string, options: T.ReadOptions = {}): Promise<T.ChannelAccount> {
    return send(this.connection, 'getChannelAccount', { id, ...options });
  }
  policies(id: string, options: T.ReadOptions = {}): Promise<T.Policy[]> {
    return send(this.connection, 'listPolicies', { id, ...options });
  }
  categories(id: string, filters: T.CategoryFilters = {}, options: T.ReadOptions = {}): List<T.Category> {
    return crawl(this.connection, 'listCategories', { id, query: filters, ...options });
  }
  attributeSchema(id: string, categoryId: string, options: T.ReadOptions = {}): Promise<T.AttributeSchema> {
    return send(this.connection, 'getAttributeSchema', { id, category_id: categoryId, ...options });
  }
}

/** Image files whose url can go into a product's images. */
export class Files extends Resource {
  upload(input: T.FileInput, options: T.WriteOptions = {}): Promise<T.UploadedFile> {
    return send(this.connection, 'uploadFile', { body: input, ...options });
  }
}

/** The public endpoints: no key needed. */
export class Service extends Resource {
  status(options: T.ReadOptions = {}): Promise<T.Status> {
    return send(this.connection, 'getStatus', { ...options });
  }
  health(options: T.ReadOptions = {}): Promise<T.Health> {
    return send(this.connection, 'getHealth', { ...options });
  }
}
