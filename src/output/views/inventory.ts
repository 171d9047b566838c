/** How inventory is shown: one SKU set, the store's stock in the CSV push reads, and what a push would change. */
import type { InventoryItem } from '../../contract/schemas/inventory.js';
import type { DiffSummary, RowChange } from '../../core/inventory/changes.js';
import type { LiveStock } from '../../core/inventory/live-stock.js';
import { plural } from '../../words.js';
import type { View } from '../view.js';

/** "TSHIRT-RED-M: quantity 12, price 19.90 (operation op_1)": one SKU as set. */
export function inventoryItemText(item: InventoryItem): string {
  const operation = item.sync?.operation_id ? ` (operation ${item.sync.operation_id})` : '';
  return `${item.sku}: quantity ${item.quantity ?? '?'}, price ${item.price ?? '?'}${operation}`;
}

/** Every SKU with its quantity and price: the columns `inventory push` reads. */
export const stockView: View<LiveStock> = {
  columns: [
    { header: 'SKU', cell: (r) => r.sku },
    { header: 'QUANTITY', cell: (r) => String(r.quantity ?? '') },
    { header: 'PRICE', cell: (r) => r.price ?? '' },
  ],
  fields: ['sku', 'quantity', 'price'],
};

/** The stock with the product's title and the variant's options after it, which push leaves unread. */
export const stockWithTitlesView: View<LiveStock> = {
  columns: [
    ...stockView.columns,
    { header: 'TITLE', cell: (r) => r.title ?? '', shrink: true },
    { header: 'OPTIONS', cell: (r) => r.options ?? '', shrink: true },
  ],
  fields: [...stockView.fields, 'title', 'options'],
};

/** One row per SKU a push would change, or that the store does not have. */
export const changesView: View<RowChange> = {
  columns: [
    { header: 'LINE', cell: (c) => String(c.line) },
    { header: 'SKU', cell: (c) => c.sku },
    { header: 'CHANGE', cell: (c) => changeWords(c) },
    { header: 'QUANTITY', cell: (c) => fromTo(c.quantity_before, c.quantity_after) },
    { header: 'PRICE', cell: (c) => fromTo(c.price_before, c.price_after) },
  ],
  fields: [
    'line',
    'sku',
    'status',
    'quantity',
    'quantity_before',
    'quantity_after',
    'price_before',
    'price_after',
  ],
};

function changeWords(change: RowChange): string {
  if (change.status === 'not_in_store') return 'not in the store';
  const words = [];
  if (change.quantity)
    words.push(change.quantity === 'to_zero' ? 'quantity to 0' : `quantity ${change.quantity}`);
  if (change.price_after !== undefined) words.push('price');
  return words.join(', ');
}

function fromTo(before: number | string | null | undefined, after: number | string | undefined): string {
  if (after === undefined) return '';
  return `${before ?? '(none)'} → ${after}`;
}

/** "2,000 rows: 1,994 unchanged, 4 to change (…), 2 not in the store; …". */
export function diffSummaryLine(s: DiffSummary): string {
  const n = (value: number) => value.toLocaleString('en-US');
  const how = [
    s.quantity_up > 0 ? `${n(s.quantity_up)} quantity up` : '',
    s.quantity_down > 0 ? `${n(s.quantity_down)} down` : '',
    s.quantity_to_zero > 0 ? `${n(s.quantity_to_zero)} to 0` : '',
    s.price_changed > 0 ? `${n(s.price_changed)} price` : '',
  ].filter(Boolean);
  const parts = [
    `${n(s.unchanged)} unchanged`,
    `${n(s.changed)} to change${how.length > 0 ? ` (${how.join(', ')})` : ''}`,
    ...(s.not_in_store > 0 ? [`${n(s.not_in_store)} not in the store (a push fails them)`] : []),
  ];
  const cost =
    s.changed === 0
      ? 'nothing to push'
      : `\`push --changed-only\` would spend ${n(s.write_quota)} ${plural(s.write_quota, 'unit')} of daily write quota, a full push ${n(s.full_push_requests)}`;
  return `${n(s.rows)} ${plural(s.rows, 'row')}: ${parts.join(', ')}; ${cost}.`;
}

/**
 * What a push's question shows beside its cost: "Largest changes (10 of 37):" and a line per
 * change, its SKU and what moves ("quantity 40 → 0", "price 10.00 → 1.00"). Empty when none.
 */
export function largestChangesLines(largest: readonly RowChange[], changed: number): string[] {
  if (largest.length === 0) return [];
  const n = (value: number) => value.toLocaleString('en-US');
  const heading =
    largest.length < changed
      ? `Largest changes (${largest.length} of ${n(changed)}, zeroings first):`
      : `${changed === 1 ? 'The one change' : `All ${n(changed)} changes, zeroings first`}:`;
  const width = Math.max(...largest.map((change) => change.sku.length));
  return [
    heading,
    ...largest.map((change) => {
      const moves = [
        change.quantity_after === undefined
          ? ''
          : `quantity ${fromTo(change.quantity_before, change.quantity_after)}`,
        change.price_after === undefined ? '' : `price ${fromTo(change.price_before, change.price_after)}`,
      ].filter(Boolean);
      return `  ${change.sku.padEnd(width)}  ${moves.join(', ')}`;
    }),
  ];
}
