/**
 * `createClient()`: the typed client of the library. It connects on first use (resolving the
 * key, base URL and pacing as the CLI does) and every method goes through the same client,
 * transport, pacing and pager as the CLI's commands.
 */
import type { ClientOptions } from './connect.js';
import {
  Channels,
  type Connection,
  Events,
  Files,
  Inventory,
  Listings,
  Operations,
  Orders,
  Products,
  Service,
  Webhooks,
} from './resources.js';

/** A client of the service: one property per resource; close() it when done. */
export class SvcClient {
  readonly products: Products;
  readonly listings: Listings;
  readonly inventory: Inventory;
  readonly orders: Orders;
  readonly operations: Operations;
  readonly events: Events;
  readonly webhooks: Webhooks;
  readonly channels: Channels;
  readonly files: Files;
  /** The public endpoints (status, health): no key needed. */
  readonly service: Service;

  private readonly connections = new Map<'key' | 'anonymous', ReturnType<Connection>>();

  /** @internal Use createClient(). */
  constructor(private readonly options: ClientOptions = {}) {
    const keyed = this.connection('key');
    this.products = new Products(keyed);
    this.listings = new Listings(keyed);
    this.inventory = new Inventory(keyed);
    this.orders = new Orders(keyed);
    this.operations = new Operations(keyed);
    this.events = new Events(keyed);
    this.webhooks = new Webhooks(keyed);
    this.channels = new Channels(keyed);
    this.files = new Files(keyed);
    this.service = new Service(this.connection('anonymous'));
  }

  /** Releases the keep-alive connections (and the shared pacing's, if any). */
  async close(): Promise<void> {
    for (const client of this.connections.values())
      await (await client.catch(() => undefined))?.client.close();
  }

  private connection(kind: 'key' | 'anonymous'): Connection {
    return () => {
      let client = this.connections.get(kind);
      if (!client) {
        // The client and what it loads (undici, the endpoint table) load on first use, not on import.
        client = import('./connect.js').then(async ({ connect, ENDPOINTS }) => ({
          ...(await connect(this.options, kind === 'anonymous')),
          operations: ENDPOINTS,
        }));
        // A failed connection is not kept: the next call tries again.
        client.catch(() => this.connections.delete(kind));
        this.connections.set(kind, client);
      }
      return client;
    };
  }
}

/**
 * A client of the service. With no options it resolves the key, base URL and pacing as `svc`
 * does: SVC_API_KEY, SVC_BASE_URL, SVC_PACING_URL, then the current profile (its key may be
 * in the OS keyring). Nothing is read or sent until the first call.
 */
export function createClient(options: ClientOptions = {}): SvcClient {
  return new SvcClient(options);
}
