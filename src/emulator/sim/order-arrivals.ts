/**
 * New orders arriving from the channels over time, when `orderArrivalPerMinute` turns it on.
 * Arrivals are materialized before each request and on the emulator's timer, at the instants a seeded Poisson
 * process gives; so the same seed, clock and requests give the same orders.
 */
import { channelKind } from '../channel-kinds.js';
import { isoTime } from '../clock.js';
import type { OrderRecord } from '../model.js';
import { Rng } from '../rng.js';
import { orderLine, Sellables } from '../seed/orders.js';
import type { Store } from '../store/store.js';

/** What arrivals need from the store. */
export type ArrivalHost = Pick<Store, 'orders' | 'accounts' | 'products' | 'ids' | 'addOrder'>;

const FIRST = ['Ava', 'Bruno', 'Carla', 'Dev', 'Elif', 'Felix', 'Gina', 'Hugo', 'Iris', 'Jamal'];
const LAST = ['Adams', 'Becker', 'Costa', 'Dimitrov', 'Evans', 'Fischer', 'Gomez', 'Hall', 'Ivanova'];
const CITIES: Record<string, [string, string, string]> = {
  US: ['Denver', 'CO', '80202'],
  CA: ['Vancouver', 'BC', 'V6B 1A1'],
  GB: ['Leeds', 'West Yorkshire', 'LS1 4AP'],
  IE: ['Cork', 'Munster', 'T12 X70A'],
  DE: ['Hamburg', 'Hamburg', '20095'],
  FR: ['Nantes', 'Pays de la Loire', '44000'],
};
/** Arrivals caught up after a long idle time reach back at most this far. */
const CATCH_UP_MS = 24 * 60 * 60 * 1000;

/** The arrival process of one store. */
export class OrderArrivals {
  private rng: Rng;
  private nextMs: number;
  private sequence = 0;

  constructor(
    private readonly host: ArrivalHost,
    private readonly options: {
      perMinute: number;
      seed: number;
      startMs: number;
      /** Share (0 to 1) of new orders that arrive `awaiting_payment`; the rest await shipment. */
      unpaidShare: number;
      /** Told of each order that arrived (the payments plan its settlement). */
      onArrival?: (order: OrderRecord) => void;
    },
  ) {
    this.rng = new Rng(this.arrivalSeed());
    this.nextMs = options.startMs + this.gapMs();
  }

  /** Back to the state at start (with the store's reset). */
  reset(): void {
    this.rng = new Rng(this.arrivalSeed());
    this.sequence = 0;
    this.nextMs = this.options.startMs + this.gapMs();
  }

  /** Materialize every arrival due by `nowMs`. */
  advance(nowMs: number): void {
    if (this.options.perMinute <= 0) return;
    if (nowMs - this.nextMs > CATCH_UP_MS) this.nextMs = nowMs - CATCH_UP_MS;
    while (this.nextMs <= nowMs) {
      this.arrive(this.nextMs);
      this.nextMs += this.gapMs();
    }
  }

  /** One new order from a channel, created at `atMs` (tests call this to make an order arrive now). */
  arrive(atMs: number): OrderRecord | undefined {
    const order = this.newOrder(atMs);
    if (order) {
      this.host.addOrder(order);
      this.options.onArrival?.(order);
    }
    return order;
  }

  private arrivalSeed(): number {
    return (Math.imul(this.options.seed + 1, 0x2545f491) ^ 0x5eed0a11) >>> 0;
  }

  /** Exponential gaps: a Poisson process of `perMinute` arrivals a minute on average. */
  private gapMs(): number {
    if (this.options.perMinute <= 0) return Number.POSITIVE_INFINITY;
    const mean = 60_000 / this.options.perMinute;
    return Math.max(1, Math.round(-Math.log(1 - this.rng.next()) * mean));
  }

  private newOrder(atMs: number): OrderRecord | undefined {
    const { rng } = this;
    const accounts = [...this.host.accounts.values()].filter((a) => a.status === 'connected');
    // Read by position, not copied into an object per SKU (a store of a million SKUs).
    const sellables = new Sellables([...this.host.products.values()]);
    if (accounts.length === 0 || sellables.length === 0) return undefined;
    const account = rng.pick(accounts);
    // An earlier order of the account gives its currency and where its buyers live.
    const earlier = [...this.host.orders.values()].find((o) => o.channel_account_id === account.id);
    const country = earlier?.buyer.country ?? 'US';
    const currency = earlier?.currency ?? sellables.at(0).product.currency ?? 'USD';
    const profile = channelKind(account.channel);
    const idOnChannel = profile.orderIdOnChannel(rng, 100_000 + this.sequence++);
    const lines: OrderRecord['lines'] = [];
    let totalCents = 0;
    for (let count = rng.chance(0.75) ? 1 : 2; count > 0; count--) {
      const { product, variant } = sellables.pick(rng);
      const quantity = rng.chance(0.85) ? 1 : 2;
      totalCents += Math.round(Number(variant.price) * 100) * quantity;
      lines.push(orderLine(product, variant, quantity));
    }
    const first = rng.pick(FIRST);
    const last = rng.pick(LAST);
    const name = `${first} ${last}`;
    const [city, region, postalCode] = CITIES[country] ?? CITIES.US;
    const status = rng.chance(1 - this.options.unpaidShare) ? 'awaiting_shipment' : 'awaiting_payment';
    const created = isoTime(atMs);
    return {
      id: this.host.ids.next('ord'),
      object: 'order',
      channel_account_id: account.id,
      channel: account.channel,
      order_id_on_channel: idOnChannel,
      order_url: profile.orderUrl(account.shop_name, idOnChannel),
      status,
      fulfillment_status: 'unfulfilled',
      source_status: profile.sourceStatus[status] ?? status,
      tracking: null,
      currency,
      total: (totalCents / 100).toFixed(2),
      lines,
      buyer: {
        name,
        email: `${first}.${last}${rng.int(1, 99)}@example.com`.toLowerCase(),
        country,
        address: {
          name,
          line1: `${rng.int(1, 999)} Market Street`,
          line2: null,
          city,
          region,
          postal_code: postalCode,
          country,
          phone: null,
        },
      },
      created_at: created,
      updated_at: created,
    };
  }
}
