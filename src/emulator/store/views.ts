/** Records as the wire shows them, where a response is more than the stored record. */
import type { InventoryItem } from '../../contract/schemas/inventory.js';
import type { ListingRecord, ProductRecord, VariantRecord } from '../model.js';

/** A product with its listing summaries, as GET /products/{id} returns it. */
export function productView(product: ProductRecord, listings: Iterable<ListingRecord>) {
  const summaries = [];
  for (const listing of listings) {
    summaries.push({
      id: listing.id,
      channel_account_id: listing.channel_account_id,
      channel: listing.channel,
      status: listing.status,
      url_on_channel: listing.url_on_channel,
    });
  }
  return { ...product, listings: summaries };
}

/** The product shape with listing summaries. */
export type ProductView = ReturnType<typeof productView>;

/** The inventory item of a variant, without the `sync` block of a write's answer. */
export function inventoryItem(product: ProductRecord, variant: VariantRecord, updatedAt: string) {
  return {
    object: 'inventory_item' as const,
    sku: variant.sku,
    variant_id: variant.id,
    product_id: product.id,
    quantity: variant.quantity,
    price: variant.price,
    updated_at: updatedAt,
  } satisfies InventoryItem;
}

/** An inventory item as the wire shows it. */
export type InventoryItemView = ReturnType<typeof inventoryItem>;

/**
 * A deep copy for an event's snapshot, so later changes do not rewrite history. Strings are
 * shared, not copied (they cannot change): an event log of a million inventory changes keeps
 * a million small objects, not a million copies of every SKU, id and time.
 */
export function snapshot<T>(value: T): T {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((item) => snapshot(item)) as T;
  // Records are plain objects (nothing inherited to enumerate): for…in, without Object.entries' arrays.
  const copy: Record<string, unknown> = {};
  for (const key in value) copy[key] = snapshot(value[key]);
  return copy as T;
}
