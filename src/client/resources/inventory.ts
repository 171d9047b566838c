/** Quantity and price by SKU. Setting inventory is absolute, so repeating a write is safe. */

import { ENDPOINTS } from '../../contract/endpoints.js';
import type { InventoryBatchResult, InventoryItem } from '../../contract/schemas/inventory.js';
import type { ApiClient } from '../client.js';

/** One SKU's new values; an omitted field is left unchanged. */
export interface InventoryChange {
  sku: string;
  quantity?: number;
  price?: string;
}

/** Sets up to 100 SKUs in one request; per-item results. */
export function pushInventoryBatch(
  client: ApiClient,
  items: InventoryChange[],
): Promise<InventoryBatchResult> {
  const body = { items: items.map(({ sku, quantity, price }) => ({ sku, quantity, price })) };
  return client.call(ENDPOINTS.batchInventory, { body });
}

/** Sets one SKU. */
export function setInventory(client: ApiClient, change: InventoryChange): Promise<InventoryItem> {
  const { sku, quantity, price } = change;
  return client.call(ENDPOINTS.updateInventory, { sku, body: { quantity, price } });
}
