/** Quantity and price by SKU. Setting inventory is absolute, so repeating a write is safe. */

import { InventoryBatchResult, InventoryItem } from '../../contract/schemas/inventory.js';
import type { ApiClient } from '../client.js';
import { itemPath } from './paths.js';

/** One SKU's new values; an omitted field is left unchanged. */
export interface InventoryChange {
  sku: string;
  quantity?: number;
  price?: string;
}

/** POST /inventory/batch with up to 100 items; per-item results. */
export async function pushInventoryBatch(
  client: ApiClient,
  items: InventoryChange[],
): Promise<InventoryBatchResult> {
  const body = { items: items.map(({ sku, quantity, price }) => ({ sku, quantity, price })) };
  return (
    await client.request(
      { method: 'POST', path: '/inventory/batch', body, repeatable: true },
      InventoryBatchResult,
    )
  ).body;
}

/** PATCH /inventory/{sku}. */
export async function setInventory(client: ApiClient, change: InventoryChange): Promise<InventoryItem> {
  const { sku, quantity, price } = change;
  const path = itemPath('/inventory', sku);
  return (
    await client.request(
      { method: 'PATCH', path, body: { quantity, price }, repeatable: true },
      InventoryItem,
    )
  ).body;
}
