/**
 * The route table: a handler for every operation of the contract's table (src/contract/operations.ts),
 * which gives each route its method, path, scope and quota rule.
 */

import { API_OPERATIONS } from '../../contract/operations.js';
import {
  getAttributeSchema,
  getChannelAccount,
  listCategories,
  listChannelAccounts,
  listPolicies,
} from './handlers/channel-accounts.js';
import { listEvents } from './handlers/events.js';
import { uploadFile } from './handlers/files.js';
import { batchInventory, patchInventory } from './handlers/inventory.js';
import {
  createListing,
  createListingBatch,
  deleteListing,
  getListing,
  listListings,
  updateListing,
} from './handlers/listings.js';
import { getOpenApiDocument } from './handlers/openapi.js';
import { getOperation, listOperations } from './handlers/operations.js';
import { fulfillOrder, getOrder, listOrders } from './handlers/orders.js';
import {
  batchProducts,
  createProduct,
  deleteProduct,
  getProduct,
  listProducts,
  updateProduct,
} from './handlers/products.js';
import { getHealth, getStatus } from './handlers/status.js';
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  getWebhookEndpoint,
  listWebhookEndpoints,
  updateWebhookEndpoint,
} from './handlers/webhook-endpoints.js';
import type { Handler, Route } from './router.js';

/** The handler of each operation, by its operationId. */
const HANDLERS: Readonly<Record<string, Handler>> = {
  getStatus,
  getHealth,
  getOpenApiDocument,
  listChannelAccounts,
  getChannelAccount,
  listPolicies,
  listCategories,
  getAttributeSchema,
  listProducts,
  createProduct,
  batchProducts,
  getProduct,
  updateProduct,
  deleteProduct,
  uploadFile,
  listListings,
  createListing,
  batchListings: createListingBatch,
  getListing,
  updateListing,
  deleteListing,
  batchInventory,
  updateInventory: patchInventory,
  listOrders,
  getOrder,
  fulfillOrder,
  listOperations,
  getOperation,
  listEvents,
  listWebhookEndpoints,
  createWebhookEndpoint,
  getWebhookEndpoint,
  updateWebhookEndpoint,
  deleteWebhookEndpoint,
};

/** Every route, as the contract lists the operations; an operation without a handler is a bug caught here. */
export const ROUTES: Route[] = API_OPERATIONS.map((operation) => {
  const handler = HANDLERS[operation.id];
  if (!handler) throw new Error(`the emulator has no handler for ${operation.id}`);
  return {
    method: operation.method,
    pattern: operation.path,
    scope: operation.scope,
    quota: operation.quota === 1,
    handler,
  };
});
