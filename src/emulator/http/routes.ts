/** The route table: every path the emulator serves, with its scope and quota rule. */
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
import type { Route } from './router.js';

/** Every route, in the order the router tries them. */
export const ROUTES: Route[] = [
  { method: 'GET', pattern: '/status', scope: null, handler: getStatus },
  { method: 'GET', pattern: '/health', scope: null, handler: getHealth },
  { method: 'GET', pattern: '/channel_accounts', scope: 'products:read', handler: listChannelAccounts },
  { method: 'GET', pattern: '/channel_accounts/{id}', scope: 'products:read', handler: getChannelAccount },
  {
    method: 'GET',
    pattern: '/channel_accounts/{id}/policies',
    scope: 'products:read',
    handler: listPolicies,
  },
  {
    method: 'GET',
    pattern: '/channel_accounts/{id}/categories',
    scope: 'products:read',
    handler: listCategories,
  },
  {
    method: 'GET',
    pattern: '/channel_accounts/{id}/categories/{category_id}/attribute_schema',
    scope: 'products:read',
    handler: getAttributeSchema,
  },
  { method: 'GET', pattern: '/products', scope: 'products:read', handler: listProducts },
  { method: 'GET', pattern: '/products/{id}', scope: 'products:read', handler: getProduct },
  { method: 'POST', pattern: '/products', scope: 'products:write', quota: true, handler: createProduct },
  {
    method: 'POST',
    pattern: '/products/batch',
    scope: 'products:write',
    quota: true,
    handler: batchProducts,
  },
  {
    method: 'PATCH',
    pattern: '/products/{id}',
    scope: 'products:write',
    quota: true,
    handler: updateProduct,
  },
  {
    method: 'DELETE',
    pattern: '/products/{id}',
    scope: 'products:write',
    quota: true,
    handler: deleteProduct,
  },
  // Not under /products, so not channel-mutating: the write quota does not count uploads.
  { method: 'POST', pattern: '/files', scope: 'products:write', handler: uploadFile },
  { method: 'GET', pattern: '/listings', scope: 'products:read', handler: listListings },
  { method: 'GET', pattern: '/listings/{id}', scope: 'products:read', handler: getListing },
  { method: 'POST', pattern: '/listings', scope: 'listings:write', quota: true, handler: createListing },
  {
    method: 'POST',
    pattern: '/listings/batch',
    scope: 'listings:write',
    quota: true,
    handler: createListingBatch,
  },
  {
    method: 'PATCH',
    pattern: '/listings/{id}',
    scope: 'listings:write',
    quota: true,
    handler: updateListing,
  },
  {
    method: 'DELETE',
    pattern: '/listings/{id}',
    scope: 'listings:write',
    quota: true,
    handler: deleteListing,
  },
  { method: 'GET', pattern: '/orders', scope: 'orders:read', handler: listOrders },
  { method: 'GET', pattern: '/orders/{id}', scope: 'orders:read', handler: getOrder },
  // Not under /products, /inventory or /listings: no daily write quota (docs/service-contract.md).
  { method: 'POST', pattern: '/orders/{id}/fulfillment', scope: 'orders:write', handler: fulfillOrder },
  { method: 'GET', pattern: '/operations', scope: 'products:read', handler: listOperations },
  { method: 'GET', pattern: '/operations/{id}', scope: 'products:read', handler: getOperation },
  { method: 'GET', pattern: '/events', scope: 'events:read', handler: listEvents },
  { method: 'GET', pattern: '/webhook_endpoints', scope: 'webhooks:manage', handler: listWebhookEndpoints },
  {
    method: 'GET',
    pattern: '/webhook_endpoints/{id}',
    scope: 'webhooks:manage',
    handler: getWebhookEndpoint,
  },
  { method: 'POST', pattern: '/webhook_endpoints', scope: 'webhooks:manage', handler: createWebhookEndpoint },
  {
    method: 'PATCH',
    pattern: '/webhook_endpoints/{id}',
    scope: 'webhooks:manage',
    handler: updateWebhookEndpoint,
  },
  {
    method: 'DELETE',
    pattern: '/webhook_endpoints/{id}',
    scope: 'webhooks:manage',
    handler: deleteWebhookEndpoint,
  },
  {
    method: 'POST',
    pattern: '/inventory/batch',
    scope: 'inventory:write',
    quota: true,
    handler: batchInventory,
  },
  {
    method: 'PATCH',
    pattern: '/inventory/{sku}',
    scope: 'inventory:write',
    quota: true,
    handler: patchInventory,
  },
];
