/**
 * A shipments file's order column as shipping tools export it: the orders' numbers on their
 * channels (`order_id_on_channel`: `70-38343-78751`, `#1001`), svc ids (`ord_…`) among them.
 * Numbers are resolved before anything is sent, with one crawl of the orders awaiting shipment
 * and, for numbers not among them, one look through recent orders: a number whose order has
 * shipped is settled as skipped, one canceled or refunded as failed, as is an unknown number
 * and a number orders on two channel accounts hold.
 */
import type { OrderFilters } from '../../client/resources/orders.js';
import type { Order } from '../../contract/schemas/order.js';
import type { Shipment } from './shipments.js';

/** How far back the second look reaches (orders changed since): a shipping tool's export is days old, not months. */
const RECENT_DAYS = 90;
const DAY_MS = 86_400_000;

/** Whether an order cell holds an svc order id rather than a channel's number. */
export function isOrderId(value: string): boolean {
  return value.startsWith('ord_');
}

/** A crawl of GET /orders with these filters, every page, `onPage` told of each page fetched. */
type ListOrders = (filters: OrderFilters, onPage: () => void) => AsyncIterable<Order>;

/** What the resolution needs: the crawl, the narrowing flags, and the time (for "recent"). */
export interface ResolveOptions {
  list: ListOrders;
  /** `--channel`, `--channel-account`. */
  filters: Pick<OrderFilters, 'channel' | 'channel_account_id'>;
  now: number;
  /** Told of every list page fetched. */
  onPage?: () => void;
}

/** A line settled before anything is sent: the report's status, code and message. */
export interface Settled {
  status: 'skipped' | 'failed';
  code: string | null;
  message: string;
}

/** The shipments with the orders they name, and the lines that were settled by what was read. */
export interface ResolvedShipments {
  /** The file's shipments in order; a resolved number carries its order's id as `target`. */
  shipments: Shipment[];
  /** Lines settled before sending, by their place in `shipments`. */
  settled: Map<number, Settled>;
  /** Every order the crawls found for a line, by id (a dry run's verdicts need no read of them). */
  seen: Map<string, Order>;
  /** Lines that name their order by its channel number. */
  numberLines: number;
  /** List requests the resolution made. */
  listRequests: number;
}

/** The order a shipment names: its resolved id, else the id as written. */
export function targetOf(shipment: Shipment): string {
  return shipment.target ?? shipment.orderId;
}

/** Resolves every number of the file (reads only), then settles the lines that cannot be sent. */
export async function resolveOrderNumbers(
  shipments: readonly Shipment[],
  options: ResolveOptions,
): Promise<ResolvedShipments> {
  const numbers = new Set(shipments.map((s) => s.orderId).filter((cell) => !isOrderId(cell)));
  let listRequests = 0;
  const counting: ResolveOptions = {
    ...options,
    onPage: () => {
      listRequests += 1;
      options.onPage?.();
    },
  };
  const awaiting =
    numbers.size > 0 ? await crawlFor(numbers, { status: 'awaiting_shipment' }, counting) : new Map();
  const left = new Set([...numbers].filter((number) => !awaiting.has(number)));
  const since = options.now - RECENT_DAYS * DAY_MS;
  const recent = left.size > 0 ? await crawlFor(left, {}, counting, since) : new Map();

  const seen = new Map<string, Order>();
  const settled = new Map<number, Settled>();
  const firstLineOf = new Map<string, number>();
  const resolved = shipments.map((shipment, index) => {
    if (isOrderId(shipment.orderId)) return shipment;
    const orders = awaiting.get(shipment.orderId) ?? recent.get(shipment.orderId) ?? [];
    for (const order of orders) seen.set(order.id, order);
    const verdict = judgeNumber(shipment, orders, options.filters);
    if ('status' in verdict) {
      settled.set(index, verdict);
      return shipment;
    }
    return { ...shipment, target: verdict.id };
  });
  // Two lines naming one order (a number and its id): only the first is sent.
  resolved.forEach((shipment, index) => {
    if (settled.has(index)) return;
    const id = targetOf(shipment);
    const first = firstLineOf.get(id);
    if (first === undefined) firstLineOf.set(id, shipment.line);
    else
      settled.set(index, {
        status: 'failed',
        code: 'duplicate_order',
        message: `order ${id} appears twice (first on line ${first})`,
      });
  });
  return {
    shipments: resolved,
    settled,
    seen,
    numberLines: shipments.length - countIds(shipments),
    listRequests,
  };
}

function countIds(shipments: readonly Shipment[]): number {
  return shipments.filter((s) => isOrderId(s.orderId)).length;
}

/**
 * Orders whose number is one of `numbers`, by number, from one crawl with `query` and the
 * narrowing filters. With `since`, the crawl (newest change first) ends at the first order
 * unchanged since then, or once every number was seen.
 */
async function crawlFor(
  numbers: ReadonlySet<string>,
  query: OrderFilters,
  options: ResolveOptions,
  since?: number,
): Promise<Map<string, Order[]>> {
  const found = new Map<string, Order[]>();
  const filters = Object.fromEntries(
    Object.entries({ ...options.filters, ...query }).filter(([, value]) => value !== undefined),
  ) as OrderFilters;
  for await (const order of options.list(filters, () => options.onPage?.())) {
    if (since !== undefined && Date.parse(order.updated_at ?? order.created_at) < since) break;
    const number = order.order_id_on_channel?.trim();
    if (!number || !numbers.has(number)) continue;
    found.set(number, [...(found.get(number) ?? []), order]);
    if (since !== undefined && found.size === numbers.size) break;
  }
  return found;
}

/** The order a line's number names, or how the line is settled without sending. */
function judgeNumber(
  shipment: Shipment,
  orders: readonly Order[],
  filters: ResolveOptions['filters'],
): Settled | { id: string } {
  const number = shipment.orderId;
  const accounts = [...new Set(orders.map((order) => order.channel_account_id ?? ''))];
  if (orders.length === 0) {
    const narrowed = [
      filters.channel ? `--channel ${filters.channel}` : '',
      filters.channel_account_id ? `--channel-account ${filters.channel_account_id}` : '',
    ].filter(Boolean);
    const among = narrowed.length > 0 ? ` (looked only at ${narrowed.join(' ')})` : '';
    return {
      status: 'failed',
      code: 'order_not_found',
      message: `no order has this number on any channel${among}, awaiting shipment or changed in the last ${RECENT_DAYS} days`,
    };
  }
  if (accounts.length > 1) {
    const held = orders.map((order) => `${order.id} on ${order.channel_account_id} (${order.channel})`);
    return {
      status: 'failed',
      code: 'ambiguous_order_number',
      message: `number ${number} is held by orders on ${accounts.length} channel accounts: ${held.join(' and ')}; pick one with --channel-account ${accounts.join(' or ')}`,
    };
  }
  const [order] = orders;
  if (order.status === 'awaiting_shipment') return { id: order.id };
  const tracking = order.tracking?.number
    ? `tracking ${order.tracking.number}${order.tracking.carrier ? ` (${order.tracking.carrier})` : ''}`
    : 'no tracking';
  if (order.status === 'shipped')
    return {
      status: 'skipped',
      code: null,
      message: `order ${order.id} (${number}) was already shipped with ${tracking}`,
    };
  return {
    status: 'failed',
    code: 'invalid_state',
    message: `order ${order.id} (${number}) is ${order.status}; only an order awaiting shipment can be fulfilled`,
  };
}
