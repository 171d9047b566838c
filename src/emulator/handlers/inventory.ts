/** PATCH /inventory/{sku}: set a SKU's quantity and/or price; test keys only simulate. */
import { InventoryUpdate } from '../../api/schemas/inventory.js';
import { notFound } from '../errors.js';
import type { Handler } from '../router.js';
import { validateBody } from '../validation.js';

/** PATCH /inventory/{sku} (the SKU arrives URL-decoded). */
export const patchInventory: Handler = (store, request) => {
  const input = validateBody(InventoryUpdate, request.body);
  const { sku } = request.params;
  const simulate = request.key?.mode === 'test';
  const change = store.setInventory(sku, input, { simulate });
  if (!change) throw notFound(`No variant has the SKU ${JSON.stringify(sku)}.`, 'sku');
  const targets = store.inventoryTargets(change.product.id);
  const operation = store.createOperation(
    {
      type: 'inventory.update',
      resource_type: 'inventory',
      resource_id: sku,
      results: targets.map((listing) => ({
        channel_account_id: listing.channel_account_id,
        listing_id: listing.id,
        sku,
      })),
    },
    { simulate },
  );
  return {
    status: 200,
    body: {
      ...change.item,
      sync: {
        operation_id: operation.id,
        channels: operation.results.map((result) => ({
          channel_account_id: result.channel_account_id,
          status: result.status,
        })),
      },
    },
  };
};
