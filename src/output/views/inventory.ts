/** How inventory is shown: one SKU set, the store's stock in the CSV push reads, and what a push would change. */
import type { InventoryItem } from '../../contract/schemas/inventory.js';
import type { RowChange } from '../../core/inventory/changes.js';
import type { LiveStock } from '../../core/inventory/live-stock.js';
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
