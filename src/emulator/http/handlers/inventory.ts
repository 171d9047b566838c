/** PATCH /inventory/{sku} and POST /inventory/batch: quantity and price by SKU; test keys only simulate. */
import { ERROR_CODES } from '../../../contract/contract.js';
import { InventoryBatchInput, InventoryUpdate } from '../../../contract/schemas/inventory.js';
import type { Store } from '../../store/store.js';
import { notFound } from '../errors.js';
import type { Handler } from '../router.js';
import { validateBatch, validateBody } from '../validation.js';

/** PATCH /inventory/{sku} (the SKU arrives URL-decoded). */
export const patchInventory: Handler = (store, request) => {
  const input = validateBody(InventoryUpdate, request.body);
  const { sku } = request.params;
  const simulate = request.key?.mode === 'test';
  const change = store.setInventory(sku, input, { simulate });
  if (!change) throw notFound(`No variant has the SKU ${JSON.stringify(sku)}.`, 'sku');
  const operation = propagate(store, sku, [{ sku, productId: change.product.id }], simulate);
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

/**
 * POST /inventory/batch: 1 to 100 items, checked whole before anything is applied; one
 * operation for the request; an unknown SKU is a per-item failure, not a request error.
 */
export const batchInventory: Handler = (store, request) => {
  const input = validateBatch(InventoryBatchInput, request.body);
  const simulate = request.key?.mode === 'test';
  const changed: { sku: string; productId: string }[] = [];
  const data = input.items.map(({ sku, quantity, price }) => {
    const change = store.setInventory(sku, { quantity, price }, { simulate });
    if (!change) {
      const error = {
        code: ERROR_CODES.skuNotFound,
        message: `No variant has the SKU ${JSON.stringify(sku)}.`,
      };
      return { sku, status: 'failed', error };
    }
    if (change.changed) changed.push({ sku, productId: change.product.id });
    return { sku, status: change.changed ? 'updated' : 'unchanged' };
  });
  const operation = propagate(store, `batch:${input.items.length}`, changed, simulate);
  return { status: 200, body: { object: 'inventory_batch_result', operation_id: operation.id, data } };
};

/** The operation that carries changed SKUs to every listing with inventory control. */
function propagate(
  store: Store,
  resourceId: string,
  changed: { sku: string; productId: string }[],
  simulate: boolean,
) {
  return store.createOperation(
    {
      type: 'inventory.update',
      resource_type: 'inventory',
      resource_id: resourceId,
      results: changed.flatMap(({ sku, productId }) =>
        store.inventoryTargets(productId).map((listing) => ({
          channel_account_id: listing.channel_account_id,
          listing_id: listing.id,
          sku,
        })),
      ),
    },
    { simulate },
  );
}
