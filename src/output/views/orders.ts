/** How orders are shown: an operator's glance on a terminal, a row per order in csv/tsv (per line on request). */
import type { Order } from '../../contract/schemas/order.js';
import type { View } from '../view.js';

const ORDER_FIELDS = [
  'id',
  'channel',
  'channel_account_id',
  'order_id_on_channel',
  'status',
  'fulfillment_status',
  'source_status',
  'currency',
  'total',
  'buyer.country',
  'tracking.number',
  'tracking.carrier',
  'created_at',
  'updated_at',
];
const LINE_FIELDS = ['lines.sku', 'lines.title', 'lines.quantity', 'lines.price', 'lines.product_id'];
const BUYER_FIELDS = ['buyer.name', 'buyer.email', 'buyer.address'];
/** The buyer's columns in csv and tsv: the address as one column per field (docs/guide.md, Output). */
const BUYER_COLUMNS = [
  'buyer.name',
  'buyer.email',
  ...['name', 'line1', 'line2', 'city', 'region', 'postal_code', 'country', 'phone'].map(
    (field) => `buyer.address.${field}`,
  ),
];

/** The order without its buyer's name, email and address (the country stays: it is not personal). */
function withoutBuyerData(order: Order): Order {
  if (!order.buyer) return order;
  const { name: _name, email: _email, address: _address, ...rest } = order.buyer;
  return { ...order, buyer: rest };
}

/** Whether a --fields path names buyer personal data (buyer.email, buyer.address.city…). */
export function isBuyerField(path: string): boolean {
  return BUYER_FIELDS.some((field) => path === field || path.startsWith(`${field}.`)) || path === 'buyer';
}

/**
 * The orders view; buyer name, email and address in tables, csv and tsv only with `showBuyer`
 * (json and ndjson carry the order as given); a row per order line with `perLine`.
 */
export function ordersView(showBuyer: boolean, perLine = false): View<Order> {
  return {
    columns: [
      { header: 'ID', cell: (o) => o.id },
      { header: 'CHANNEL', cell: (o) => o.channel ?? '', drop: 4 },
      // The number the buyer and the marketplace quote: kept on a narrow terminal (wrapped at the narrowest).
      { header: 'ORDER ON CHANNEL', cell: (o) => o.order_id_on_channel ?? '', wrap: 'text' },
      { header: 'STATUS', cell: (o) => o.status, wrap: 'text' },
      { header: 'TOTAL', cell: (o) => `${o.total ?? ''} ${o.currency ?? ''}`.trim() },
      {
        header: 'ITEMS',
        cell: (o) => String((o.lines ?? []).reduce((sum, line) => sum + line.quantity, 0)),
        drop: 2,
      },
      ...(showBuyer
        ? [
            {
              header: 'BUYER',
              cell: (o: Order) => `${o.buyer?.name ?? ''} <${o.buyer?.email ?? ''}>`,
              shrink: true,
            },
          ]
        : []),
      { header: 'COUNTRY', cell: (o) => o.buyer?.country ?? '', drop: 1 },
      { header: 'AGE', time: (o) => o.created_at, drop: 3 },
    ],
    fields: [...ORDER_FIELDS, ...(showBuyer ? BUYER_COLUMNS : [])],
    hideInText: showBuyer ? undefined : withoutBuyerData,
    // A row per order; per order line (the order's columns repeated) once a `lines.*` field
    // is selected or --per-line asks, so `wc -l` counts orders unless lines were asked for.
    perLine: { field: 'lines', fields: LINE_FIELDS, always: perLine },
  };
}

/** One line for a terminal: the order, its status and tracking. */
export function orderLine(order: Order): string {
  const tracking = order.tracking ? ` · ${order.tracking.carrier} ${order.tracking.number}` : '';
  return `${order.id} · ${order.channel ?? ''} ${order.order_id_on_channel ?? ''} · ${order.status}${tracking}`;
}

/** Rows of a list to choose orders from, aligned as a table: the header line, and a line per order. */
export interface OrderChoiceRows {
  header: string;
  rows: string[];
}

/**
 * The orders as lines to choose from (`orders fulfill` at a terminal): channel, number on the
 * channel, age, items, total, and the buyer's name with `showBuyer`, fitted to `width`.
 */
export async function orderChoiceRows(
  orders: readonly Order[],
  options: { showBuyer: boolean; now: number; width?: number },
): Promise<OrderChoiceRows> {
  const { renderTable } = await import('../table.js');
  const { age } = await import('../time.js');
  const headers = [
    'CHANNEL',
    'ORDER ON CHANNEL',
    'AGE',
    'ITEMS',
    'TOTAL',
    ...(options.showBuyer ? ['BUYER'] : []),
  ];
  const rows = orders.map((o) => [
    o.channel ?? o.channel_account_id,
    o.order_id_on_channel ?? o.id,
    age(o.created_at, options.now),
    String((o.lines ?? []).reduce((sum, line) => sum + line.quantity, 0)),
    `${o.total ?? ''} ${o.currency ?? ''}`.trim(),
    ...(options.showBuyer ? [o.buyer?.name ?? ''] : []),
  ]);
  const text = await renderTable(headers, rows, false, {
    width: options.width,
    shrinkable: headers.map((header) => header === 'BUYER'),
    dropOrder: headers.map((header) => (header === 'ITEMS' ? 2 : header === 'AGE' ? 1 : undefined)),
  });
  const [header = '', ...lines] = text.trimEnd().split('\n');
  return { header, rows: lines };
}

/** How a chosen order is named in questions and the plan: "etsy 1234-5678 (ord_…)". */
export function orderLabel(order: Order): string {
  const onChannel = order.order_id_on_channel ? ` ${order.order_id_on_channel}` : '';
  return `${order.channel ?? order.channel_account_id}${onChannel} (${order.id})`;
}
