/**
 * Every operation of the API as svc and its emulator understand it: method, path, the scope
 * it needs, whether it counts against the daily write quota, its query, body and answer (zod
 * schemas), and the error codes it answers beyond those every operation of its kind does.
 * The emulator's route table takes method, path, scope and quota from here, and
 * docs/openapi.json is generated from it.
 */
import { z } from 'zod';
import { ERROR_CODES, type Scope } from '../api/contract.js';
import { FileInput } from '../api/schemas/file.js';
import { InventoryBatchInput, InventoryUpdate } from '../api/schemas/inventory.js';
import { ListingBatchInput, ListingInput, ListingUpdate } from '../api/schemas/listing.js';
import { FulfillmentInput } from '../api/schemas/order.js';
import { ProductBatchInput, ProductInput, ProductUpdate } from '../api/schemas/product.js';
import { WebhookEndpointInput, WebhookEndpointUpdate } from '../api/schemas/webhook-endpoint.js';
import {
  CategoriesQuery,
  EventsQuery,
  ListingsQuery,
  OperationsQuery,
  OrdersQuery,
  PageQuery,
  ProductsQuery,
} from './queries.js';
import {
  BatchResult,
  File,
  InventoryBatchResult,
  InventoryItemWithSync,
  Listing,
  ListingList,
  Product,
  ProductList,
  ProductWithSync,
} from './responses/catalog.js';
import { Deleted } from './responses/common.js';
import {
  AttributeSchema,
  CategoryList,
  ChannelAccount,
  ChannelAccountList,
  EventList,
  Health,
  Operation,
  OperationList,
  Order,
  OrderList,
  PolicyList,
  Status,
  WebhookEndpoint,
  WebhookEndpointList,
  WebhookEndpointWithSecret,
} from './responses/store.js';

/** An HTTP method the API takes (HEAD is answered wherever GET is, as GET without a body). */
export type ApiMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/** One operation of the API. */
export interface ApiOperation {
  /** The operationId, e.g. `listOrders`. */
  id: string;
  method: ApiMethod;
  /** Below /rest/v1, with `{name}` segments. */
  path: string;
  /** The group it is shown under. */
  tag: string;
  summary: string;
  description?: string;
  /** The scope it needs; null for the public operations, which need no key. */
  scope: Scope | null;
  /** Counts against the daily write quota when it succeeds with a live key. */
  quota?: true;
  /** What each `{name}` of the path holds. */
  params?: Readonly<Record<string, string>>;
  query?: z.ZodObject;
  body?: z.ZodType;
  /** The success status: 201 for a create, 200 otherwise. */
  status: 200 | 201;
  response: z.ZodType;
  /** Error codes it answers beyond those every operation of its kind does, by status. */
  errors?: Readonly<Partial<Record<number, readonly string[]>>>;
}

const { invalidState, listingExists, preconditionFailed, fileTooLarge, parameterInvalid } = ERROR_CODES;
const { variantMatrixIncomplete, validationFailed, resourceMissing, batchTooLarge } = ERROR_CODES;

const PRODUCT = { id: 'product id (`prod_…`)' };
const LISTING = { id: 'listing id (`list_…`)' };
const ORDER = { id: 'order id (`ord_…`)' };
const ACCOUNT = { id: 'channel account id (`chac_…`), from the list of channel accounts' };
const ENDPOINT = { id: 'webhook endpoint id (`we_…`)' };
/** What a product write may refuse beyond its body's shape: images (URLs, base64, size) and variants. */
const PRODUCT_WRITE_ERRORS = {
  400: [parameterInvalid],
  413: [fileTooLarge],
  422: [validationFailed, variantMatrixIncomplete],
} as const;

/** The answer of GET /openapi.json, in outline. */
export const OpenApiDocumentShape = z.looseObject({
  openapi: z.literal('3.1.0'),
  info: z.looseObject({ title: z.string(), version: z.string() }),
  paths: z.record(z.string(), z.unknown()),
});

/** Every operation, grouped by what it works on. */
export const API_OPERATIONS: readonly ApiOperation[] = [
  {
    id: 'getStatus',
    method: 'GET',
    path: '/status',
    tag: 'Service',
    summary: 'The public status page: state, latest probe, seven days of half-hour buckets',
    scope: null,
    status: 200,
    response: Status,
  },
  {
    id: 'getHealth',
    method: 'GET',
    path: '/health',
    tag: 'Service',
    summary: 'Liveness: `ok` while the API and its database are reachable',
    scope: null,
    status: 200,
    response: Health,
  },
  {
    id: 'getOpenApiDocument',
    method: 'GET',
    path: '/openapi.json',
    tag: 'Service',
    summary: 'This document',
    description:
      'Served by the emulator, with no key: the operations, parameters, bodies and answers it implements. The reference of the live service does not name this path.',
    scope: null,
    status: 200,
    response: OpenApiDocumentShape,
  },
  {
    id: 'listChannelAccounts',
    method: 'GET',
    path: '/channel_accounts',
    tag: 'Channel accounts',
    summary: 'The connected channel accounts, one entry per account, in one page',
    scope: 'products:read',
    status: 200,
    response: ChannelAccountList,
  },
  {
    id: 'getChannelAccount',
    method: 'GET',
    path: '/channel_accounts/{id}',
    tag: 'Channel accounts',
    summary: 'One channel account with its sync, pricing and inventory settings',
    scope: 'products:read',
    params: ACCOUNT,
    status: 200,
    response: ChannelAccount,
  },
  {
    id: 'listPolicies',
    method: 'GET',
    path: '/channel_accounts/{id}/policies',
    tag: 'Channel accounts',
    summary: "The account's shipping, return and payment policies, in one page",
    scope: 'products:read',
    params: ACCOUNT,
    status: 200,
    response: PolicyList,
  },
  {
    id: 'listCategories',
    method: 'GET',
    path: '/channel_accounts/{id}/categories',
    tag: 'Channel accounts',
    summary: "Search or browse the channel's categories, ordered by path",
    scope: 'products:read',
    params: ACCOUNT,
    query: CategoriesQuery,
    status: 200,
    response: CategoryList,
  },
  {
    id: 'getAttributeSchema',
    method: 'GET',
    path: '/channel_accounts/{id}/categories/{category_id}/attribute_schema',
    tag: 'Channel accounts',
    summary: 'The attributes a category asks for',
    scope: 'products:read',
    params: { ...ACCOUNT, category_id: 'category id, from the categories of the account' },
    status: 200,
    response: AttributeSchema,
  },
  {
    id: 'listProducts',
    method: 'GET',
    path: '/products',
    tag: 'Products',
    summary: 'Products, updated_at descending',
    scope: 'products:read',
    query: ProductsQuery,
    status: 200,
    response: ProductList,
  },
  {
    id: 'createProduct',
    method: 'POST',
    path: '/products',
    tag: 'Products',
    summary: 'Create a product with its variants and images',
    scope: 'products:write',
    quota: true,
    body: ProductInput,
    status: 201,
    response: Product,
    errors: PRODUCT_WRITE_ERRORS,
  },
  {
    id: 'batchProducts',
    method: 'POST',
    path: '/products/batch',
    tag: 'Products',
    summary: 'Create or update up to 100 products, matched by variant SKU, each with its own outcome',
    scope: 'products:write',
    quota: true,
    body: ProductBatchInput,
    status: 200,
    response: BatchResult,
    errors: { 400: [batchTooLarge] },
  },
  {
    id: 'getProduct',
    method: 'GET',
    path: '/products/{id}',
    tag: 'Products',
    summary: 'One product with its variants, images and listing summaries',
    scope: 'products:read',
    params: PRODUCT,
    status: 200,
    response: Product,
  },
  {
    id: 'updateProduct',
    method: 'PATCH',
    path: '/products/{id}',
    tag: 'Products',
    summary: 'Update a product; the answer carries the `sync` block of the channels it reaches',
    description:
      '`images` is the desired full array: an element with a known `id` is kept, one without is added and hosted, ids left out are removed. With `expected_updated_at`, a product changed since is 412.',
    scope: 'products:write',
    quota: true,
    params: PRODUCT,
    body: ProductUpdate,
    status: 200,
    response: ProductWithSync,
    errors: { ...PRODUCT_WRITE_ERRORS, 412: [preconditionFailed] },
  },
  {
    id: 'deleteProduct',
    method: 'DELETE',
    path: '/products/{id}',
    tag: 'Products',
    summary: 'Delete a product; its listings are delisted',
    scope: 'products:write',
    quota: true,
    params: PRODUCT,
    status: 200,
    response: Deleted,
  },
  {
    id: 'uploadFile',
    method: 'POST',
    path: '/files',
    tag: 'Files',
    summary: "Host an image (JPEG, PNG or WebP, judged by content; 10 MB) for a product's images",
    scope: 'products:write',
    body: FileInput,
    status: 201,
    response: File,
    errors: { 400: [parameterInvalid], 413: [fileTooLarge], 422: [validationFailed] },
  },
  {
    id: 'listListings',
    method: 'GET',
    path: '/listings',
    tag: 'Listings',
    summary: 'Listings, updated_at descending; `status=error&error_code=C` targets one failure',
    scope: 'products:read',
    query: ListingsQuery,
    status: 200,
    response: ListingList,
  },
  {
    id: 'createListing',
    method: 'POST',
    path: '/listings',
    tag: 'Listings',
    summary: 'Publish a product to a channel account: `ongoing`, with the operation that carries it',
    scope: 'listings:write',
    quota: true,
    body: ListingInput,
    status: 201,
    response: Listing,
    errors: { 404: [resourceMissing], 409: [listingExists] },
  },
  {
    id: 'batchListings',
    method: 'POST',
    path: '/listings/batch',
    tag: 'Listings',
    summary: 'Publish up to 100 listings, each with its own outcome',
    scope: 'listings:write',
    quota: true,
    body: ListingBatchInput,
    status: 200,
    response: BatchResult,
    errors: { 400: [batchTooLarge] },
  },
  {
    id: 'getListing',
    method: 'GET',
    path: '/listings/{id}',
    tag: 'Listings',
    summary: 'One listing',
    scope: 'products:read',
    params: LISTING,
    status: 200,
    response: Listing,
  },
  {
    id: 'updateListing',
    method: 'PATCH',
    path: '/listings/{id}',
    tag: 'Listings',
    summary: 'Change overrides or attributes and resync; `{}` is a plain resync',
    description:
      'Refused 409 `invalid_state` for a delisted listing, and while a delist of it is pending (the message names that operation).',
    scope: 'listings:write',
    quota: true,
    params: LISTING,
    body: ListingUpdate,
    status: 200,
    response: Listing,
    errors: { 409: [invalidState] },
  },
  {
    id: 'deleteListing',
    method: 'DELETE',
    path: '/listings/{id}',
    tag: 'Listings',
    summary: 'Delist: `ongoing` now, `delisted` when its operation succeeds',
    description:
      'Refused 409 `invalid_state` for a delisted listing, and while a delist of it is already pending.',
    scope: 'listings:write',
    quota: true,
    params: LISTING,
    status: 200,
    response: Listing,
    errors: { 409: [invalidState] },
  },
  {
    id: 'batchInventory',
    method: 'POST',
    path: '/inventory/batch',
    tag: 'Inventory',
    summary: 'Set quantity and price of up to 100 SKUs in one operation; an unknown SKU fails alone',
    scope: 'inventory:write',
    quota: true,
    body: InventoryBatchInput,
    status: 200,
    response: InventoryBatchResult,
    errors: { 400: [batchTooLarge] },
  },
  {
    id: 'updateInventory',
    method: 'PATCH',
    path: '/inventory/{sku}',
    tag: 'Inventory',
    summary: "Set one SKU's quantity, price or both",
    scope: 'inventory:write',
    quota: true,
    params: { sku: 'the SKU, URL-encoded' },
    body: InventoryUpdate,
    status: 200,
    response: InventoryItemWithSync,
  },
  {
    id: 'listOrders',
    method: 'GET',
    path: '/orders',
    tag: 'Orders',
    summary: 'Orders from every channel in one shape, updated_at descending; buyer data included',
    scope: 'orders:read',
    query: OrdersQuery,
    status: 200,
    response: OrderList,
  },
  {
    id: 'getOrder',
    method: 'GET',
    path: '/orders/{id}',
    tag: 'Orders',
    summary: 'One order',
    scope: 'orders:read',
    params: ORDER,
    status: 200,
    response: Order,
  },
  {
    id: 'fulfillOrder',
    method: 'POST',
    path: '/orders/{id}/fulfillment',
    tag: 'Orders',
    summary: 'Mark an order shipped with its tracking; only an `awaiting_shipment` order',
    scope: 'orders:write',
    params: ORDER,
    body: FulfillmentInput,
    status: 200,
    response: Order,
    errors: { 409: [invalidState] },
  },
  {
    id: 'listOperations',
    method: 'GET',
    path: '/operations',
    tag: 'Operations',
    summary: 'Operations, created_at descending; a test key also sees its simulated ones',
    scope: 'products:read',
    query: OperationsQuery,
    status: 200,
    response: OperationList,
  },
  {
    id: 'getOperation',
    method: 'GET',
    path: '/operations/{id}',
    tag: 'Operations',
    summary: 'One operation',
    scope: 'products:read',
    params: { id: 'operation id (`op_…`)' },
    status: 200,
    response: Operation,
  },
  {
    id: 'listEvents',
    method: 'GET',
    path: '/events',
    tag: 'Events',
    summary: 'The event log of the last 30 days, created_at descending',
    scope: 'events:read',
    query: EventsQuery,
    status: 200,
    response: EventList,
  },
  {
    id: 'listWebhookEndpoints',
    method: 'GET',
    path: '/webhook_endpoints',
    tag: 'Webhook endpoints',
    summary: 'Webhook endpoints, created_at descending',
    scope: 'webhooks:manage',
    query: PageQuery,
    status: 200,
    response: WebhookEndpointList,
  },
  {
    id: 'createWebhookEndpoint',
    method: 'POST',
    path: '/webhook_endpoints',
    tag: 'Webhook endpoints',
    summary: 'Register a receiver; the answer is the only one that carries its signing secret',
    description:
      'The URL is https, or plain http to a loopback address (127.0.0.1, localhost, ::1) for local receivers.',
    scope: 'webhooks:manage',
    body: WebhookEndpointInput,
    status: 201,
    response: WebhookEndpointWithSecret,
    errors: { 400: [parameterInvalid] },
  },
  {
    id: 'getWebhookEndpoint',
    method: 'GET',
    path: '/webhook_endpoints/{id}',
    tag: 'Webhook endpoints',
    summary: 'One webhook endpoint, without its secret',
    scope: 'webhooks:manage',
    params: ENDPOINT,
    status: 200,
    response: WebhookEndpoint,
  },
  {
    id: 'updateWebhookEndpoint',
    method: 'PATCH',
    path: '/webhook_endpoints/{id}',
    tag: 'Webhook endpoints',
    summary: 'Change the URL, the events, the description, or enable or disable it',
    scope: 'webhooks:manage',
    params: ENDPOINT,
    body: WebhookEndpointUpdate,
    status: 200,
    response: WebhookEndpoint,
    errors: { 400: [parameterInvalid] },
  },
  {
    id: 'deleteWebhookEndpoint',
    method: 'DELETE',
    path: '/webhook_endpoints/{id}',
    tag: 'Webhook endpoints',
    summary: 'Remove a webhook endpoint',
    scope: 'webhooks:manage',
    params: ENDPOINT,
    status: 200,
    response: Deleted,
  },
];
