/** Seeded orders: every normalized status, each channel's own status, buyers with addresses. */
import { ORDER_STATUSES } from '../../contract/contract.js';
import { channelKind } from '../channel-kinds.js';
import { isoTime } from '../clock.js';
import type { AddressRecord, OrderRecord, ProductRecord, VariantRecord } from '../model.js';
import type { Rng } from '../rng.js';
import type { SeededAccount } from './accounts.js';
import { DAY_MS, HOUR_MS, MINUTE_MS, type SeedContext, timeBetween } from './context.js';

const FIRST = [
  'Ada',
  'Ben',
  'Chloe',
  'Diego',
  'Emma',
  'Farid',
  'Grace',
  'Hiro',
  'Ines',
  'Jonas',
  'Keira',
  'Liam',
];
const LAST = [
  'Okafor',
  'Smith',
  'Nguyen',
  'Garcia',
  'Müller',
  'Rossi',
  'Kowalski',
  'Brown',
  'Dubois',
  'Tanaka',
];
const STREETS = ['Maple Ave', 'High Street', 'Station Road', 'Oak Lane', 'Hauptstraße', 'Rue de la Paix'];

const PLACES: Record<string, [string, string, () => string][]> = {
  US: [
    ['Portland', 'OR', () => '97205'],
    ['Austin', 'TX', () => '78701'],
    ['Columbus', 'OH', () => '43215'],
  ],
  CA: [['Toronto', 'ON', () => 'M5V 2T6']],
  GB: [
    ['Manchester', 'Greater Manchester', () => 'M1 1AE'],
    ['Bristol', 'Bristol', () => 'BS1 4DJ'],
  ],
  IE: [['Dublin', 'Leinster', () => 'D02 X285']],
  DE: [['Berlin', 'Berlin', () => '10115']],
  FR: [['Lyon', 'Auvergne-Rhône-Alpes', () => '69002']],
};

const CARRIERS: Record<string, [string, (n: string) => string][]> = {
  US: [
    ['USPS', (n) => `https://tools.usps.com/go/TrackConfirmAction?tLabels=${n}`],
    ['UPS', (n) => `https://www.ups.com/track?tracknum=${n}`],
    ['FedEx', (n) => `https://www.fedex.com/fedextrack/?trknbr=${n}`],
  ],
  GB: [['Royal Mail', (n) => `https://www.royalmail.com/track-your-item#/tracking-results/${n}`]],
  other: [['DHL', (n) => `https://www.dhl.com/en/express/tracking.html?AWB=${n}`]],
};

type Weights = readonly (readonly [string, number])[];
// Older orders have mostly moved on; only recent ones still wait for payment or shipment.
const RECENT: Weights = [
  ['awaiting_payment', 15],
  ['awaiting_shipment', 45],
  ['shipped', 30],
  ['canceled', 6],
  ['refunded', 1],
  ['partially_refunded', 3],
];
const WEEK: Weights = [
  ['awaiting_payment', 2],
  ['awaiting_shipment', 15],
  ['shipped', 70],
  ['canceled', 7],
  ['refunded', 3],
  ['partially_refunded', 3],
];
const OLD: Weights = [
  ['awaiting_payment', 0.3],
  ['awaiting_shipment', 1.5],
  ['shipped', 80],
  ['canceled', 8],
  ['refunded', 6],
  ['partially_refunded', 4],
];

/** A sellable variant with the product it belongs to. */
export interface Sellable {
  product: ProductRecord;
  variant: VariantRecord;
}

/**
 * Every variant of `products` in order, read by position: the `at` of a flat list of
 * sellables, found from a running count per product (no object per SKU to build).
 */
export class Sellables {
  readonly length: number;
  private readonly before: Float64Array;

  constructor(private readonly products: readonly ProductRecord[]) {
    this.before = new Float64Array(products.length);
    let count = 0;
    products.forEach((product, index) => {
      this.before[index] = count;
      count += product.variants.length;
    });
    this.length = count;
  }

  /** The sellable at `position` (0 <= position < length). */
  at(position: number): Sellable {
    let low = 0;
    let high = this.products.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (this.before[middle] <= position) low = middle;
      else high = middle - 1;
    }
    const product = this.products[low];
    return { product, variant: product.variants[position - this.before[low]] };
  }

  /** One sellable, drawn as `rng.pick` draws from the flat list. */
  pick(rng: Rng): Sellable {
    return this.at(Math.floor(rng.next() * this.length));
  }
}

const lineTitles = new WeakMap<VariantRecord, { product: string; variant: string; title: string }>();

/** A variant's title on order lines, made once and shared by every line (a million orders hold many). */
function lineTitle(product: ProductRecord, variant: VariantRecord): string {
  if (!variant.options) return product.title;
  const made = lineTitles.get(variant);
  if (made?.product === product.title && made.variant === variant.title) return made.title;
  const title = `${product.title} - ${variant.title}`;
  lineTitles.set(variant, { product: product.title, variant: variant.title, title });
  return title;
}

// Buyer names keep their accents; e-mail local parts stay plain ASCII.
/** One order line for `quantity` of a variant, titled as channels show it. */
export function orderLine(
  product: ProductRecord,
  variant: VariantRecord,
  quantity: number,
): OrderRecord['lines'][number] {
  return {
    sku: variant.sku,
    title: lineTitle(product, variant),
    quantity,
    price: variant.price,
    product_id: product.id,
  };
}

function asciiEmail(raw: string): string {
  if (/^[\x20-\x7e]*$/.test(raw)) return raw.toLowerCase();
  return raw
    .normalize('NFD')
    .replace(/[^\x20-\x7e]/g, '')
    .toLowerCase();
}

function address(ctx: SeedContext, name: string, country: string): AddressRecord {
  const { rng } = ctx;
  const [city, region, postcode] = rng.pick(PLACES[country] ?? PLACES.US);
  return {
    name,
    line1: `${rng.int(1, 999)} ${rng.pick(STREETS)}`,
    line2: rng.chance(0.25) ? `Apt ${rng.int(1, 40)}` : null,
    city,
    region,
    postal_code: postcode(),
    country,
    phone: rng.chance(0.6) ? `+1${rng.digits(10)}` : null,
  };
}

function tracking(ctx: SeedContext, country: string): NonNullable<OrderRecord['tracking']> {
  const { rng } = ctx;
  const [carrier, url] = rng.pick(CARRIERS[country] ?? CARRIERS.other);
  const number = carrier === 'UPS' ? `1Z${rng.token(16).toUpperCase()}` : `9400${rng.digits(18)}`;
  return { number, carrier, url: url(number) };
}

/** `count` orders, newest within minutes of now, oldest about half a year back. */
export function seedOrders(
  ctx: SeedContext,
  count: number,
  accounts: SeededAccount[],
  sellables: Sellables,
): OrderRecord[] {
  const { rng, ids } = ctx;
  const orders: OrderRecord[] = [];
  const sequences = new Map<string, number>();
  const accountWeights = accounts.map((seeded) => [seeded, seeded.orderWeight] as const);
  for (let index = 0; index < count; index++) {
    const seeded = rng.weighted(accountWeights);
    const { account } = seeded;
    const profile = channelKind(account.channel);
    const createdMs = timeBetween(ctx, ctx.now - 180 * DAY_MS, ctx.now - MINUTE_MS, 2.5);
    const ageMs = ctx.now - createdMs;
    // The first orders walk through every status, so each is present at any size.
    const status =
      index < ORDER_STATUSES.length
        ? ORDER_STATUSES[index]
        : rng.weighted(ageMs < 2 * DAY_MS ? RECENT : ageMs < 10 * DAY_MS ? WEEK : OLD);
    const moved = status === 'awaiting_payment' ? rng.int(0, 30) * MINUTE_MS : rng.int(1, 96) * HOUR_MS;
    const updatedMs = Math.min(ctx.now, createdMs + moved);
    const country = rng.pick(seeded.buyerCountries);
    const first = rng.pick(FIRST);
    const last = rng.pick(LAST);
    const name = `${first} ${last}`;
    const lineCount = rng.weighted([
      [1, 6],
      [2, 3],
      [3, 1],
    ] as const);
    const lines: OrderRecord['lines'] = [];
    let totalCents = 0;
    for (let l = 0; l < lineCount && sellables.length > 0; l++) {
      const { product, variant } = sellables.pick(rng);
      const quantity = rng.weighted([
        [1, 8],
        [2, 2],
        [3, 1],
      ] as const);
      totalCents += Math.round(Number(variant.price) * 100) * quantity;
      lines.push(orderLine(product, variant, quantity));
    }
    const sequence = sequences.get(account.id) ?? 0;
    sequences.set(account.id, sequence + 1);
    const idOnChannel = profile.orderIdOnChannel(rng, sequence);
    const shippedOnce = status === 'shipped' || status === 'refunded' || status === 'partially_refunded';
    orders.push({
      id: ids.next('ord'),
      object: 'order',
      channel_account_id: account.id,
      channel: account.channel,
      order_id_on_channel: idOnChannel,
      order_url: profile.orderUrl(account.shop_name, idOnChannel),
      status,
      fulfillment_status: shippedOnce ? 'fulfilled' : 'unfulfilled',
      source_status: profile.sourceStatus[status] ?? status,
      tracking: shippedOnce ? tracking(ctx, country) : null,
      currency: seeded.currency,
      total: (totalCents / 100).toFixed(2),
      lines,
      buyer: {
        name,
        email: asciiEmail(`${first}.${last}${rng.int(1, 99)}@example.com`),
        country,
        address: address(ctx, name, country),
      },
      created_at: isoTime(createdMs),
      updated_at: isoTime(updatedMs),
    });
  }
  return orders;
}
