/** The catalog: GET, POST, PATCH and DELETE /products, and POST /products/batch. */
import { ERROR_CODES, ERROR_TYPES } from '../../../contract/contract.js';
import { parseDateTime } from '../../../contract/rules/date-time.js';
import { ProductBatchInput, ProductInput, ProductUpdate } from '../../../contract/schemas/product.js';
import { isoTime } from '../../clock.js';
import type { ListingRecord, ProductRecord } from '../../model.js';
import type { Store } from '../../store/store.js';
import { HttpError, missingParam, notFound } from '../errors.js';
import { listPage, olderThan, parsePage, parseTimeParam } from '../pagination.js';
import type { EmulatorRequest, Handler } from '../router.js';
import { validateBatch, validateBody } from '../validation.js';
import { buildProduct, validationFailed } from './product-build.js';

/** GET /products: `updated_after` inclusive, updated_at descending. */
export const listProducts: Handler = (store, request) => {
  const page = parsePage(request);
  const updatedAfter = parseTimeParam(request.query, 'updated_after');
  const envelope = listPage(store.products, page, [], {
    stop: olderThan(updatedAfter, (product) => product.updated_at),
  });
  return {
    status: 200,
    body: { ...envelope, data: envelope.data.map((product) => store.productView(product)) },
  };
};

/** GET /products/{id}. */
export const getProduct: Handler = (store, request) => {
  return { status: 200, body: store.productView(findProduct(store, request)) };
};

/** POST /products: 201 Product; a test key gets the same answer and nothing is kept. */
export const createProduct: Handler = (store, request) => {
  const input = validateBody(ProductInput, request.body);
  const product = buildProduct(store, undefined, input);
  if (!simulated(request)) save(store, product);
  return { status: 201, body: store.productView(product) };
};

/**
 * PATCH /products/{id}: any product field, `images` by the rules of docs/service-contract.md, and
 * `expected_updated_at` (412 when the product changed since). Answers the product with `sync`.
 */
export const updateProduct: Handler = (store, request) => {
  const { expected_updated_at: expected, ...fields } = validateBody(ProductUpdate, request.body);
  const existing = findProduct(store, request);
  if (expected !== undefined) {
    // The schema took only an RFC 3339 date-time, so it reads.
    const expectedMs = parseDateTime(expected) as number;
    if (Date.parse(existing.updated_at) > expectedMs) {
      throw new HttpError(
        412,
        ERROR_TYPES.invalidRequest,
        ERROR_CODES.preconditionFailed,
        `The product ${existing.id} changed since ${expected}: it was updated at ${existing.updated_at}.`,
        { param: 'expected_updated_at' },
      );
    }
  }
  if (Object.keys(fields).length === 0) {
    throw missingParam('body', 'The body needs at least one product field besides expected_updated_at.');
  }
  const simulate = simulated(request);
  const product = buildProduct(store, existing, fields);
  if (!simulate) save(store, product);
  const operation = store.createOperation(
    {
      type: 'product.update',
      resource_type: 'product',
      resource_id: product.id,
      results: syncTargets(store, product.id).map((listing) => ({
        channel_account_id: listing.channel_account_id,
        listing_id: listing.id,
        sku: null,
      })),
    },
    { simulate },
  );
  const sync = {
    operation_id: operation.id,
    channels: operation.results.map(({ channel_account_id, status }) => ({ channel_account_id, status })),
  };
  return { status: 200, body: { ...store.productView(product), sync } };
};

/** DELETE /products/{id}: the product goes, its listings are delisted. */
export const deleteProduct: Handler = (store, request) => {
  const product = findProduct(store, request);
  if (!simulated(request)) {
    const view = store.productView(product);
    store.removeProduct(product.id);
    const nowIso = isoTime(store.now());
    for (const listing of store.listingsOf(product.id)) {
      if (listing.status === 'delisted') continue;
      store.listings.update(listing, () => {
        listing.status = 'delisted';
        listing.updated_at = nowIso;
      });
      store.emitEvent('listing.status_changed', listing);
    }
    store.emitEvent('product.deleted', view);
  }
  return { status: 200, body: { id: product.id, object: 'product', deleted: true } };
};

/**
 * POST /products/batch: 1 to 100 products. An item whose SKUs belong to an existing product
 * updates it (its variants and images become the item's), else it is created; each item's
 * outcome is reported by its index. A malformed item rejects the whole batch (400).
 */
export const batchProducts: Handler = (store, request) => {
  const input = validateBatch(ProductBatchInput, request.body);
  const simulate = simulated(request);
  const data = input.items.map((item, index) => {
    try {
      // An item applies whole or not at all; the items before it stay.
      return store.savepoint(() => {
        const existing = matchBySku(store, item.variants?.map((variant) => variant.sku) ?? [], index);
        const product = buildProduct(store, existing, item, {
          prefix: `items[${index}].`,
          keepImagesByUrl: true,
        });
        if (!simulate) save(store, product);
        return { index, status: existing ? 'updated' : 'created', id: product.id };
      });
    } catch (error) {
      if (!(error instanceof HttpError)) throw error;
      const failure: { code: string; message: string; param?: string } = {
        code: error.code,
        message: error.message,
      };
      if (error.param) failure.param = error.param;
      return { index, status: 'failed', error: failure };
    }
  });
  return { status: 200, body: { object: 'batch_result', data } };
};

function simulated(request: EmulatorRequest): boolean {
  return request.key?.mode === 'test';
}

function findProduct(store: Store, request: EmulatorRequest): ProductRecord {
  const product = store.products.get(request.params.id);
  if (!product) throw notFound(`No such product: ${request.params.id}.`, 'id');
  return product;
}

function save(store: Store, product: ProductRecord): void {
  store.putProduct(product);
  store.emitEvent('product.updated', store.productView(product));
}

/** The one product owning any of these SKUs; several owners is an item failure. */
function matchBySku(store: Store, skus: string[], index: number): ProductRecord | undefined {
  const owners = new Set<string>();
  for (const sku of skus) {
    const owner = store.locateSku(sku);
    if (owner) owners.add(owner.product.id);
  }
  if (owners.size > 1) {
    throw validationFailed(
      `items[${index}].variants`,
      `The SKUs of this item belong to ${owners.size} products (${[...owners].join(', ')}); an item can update only one.`,
    );
  }
  const [id] = owners;
  return id === undefined ? undefined : store.products.get(id);
}

/** The listings an edit propagates to: not delisted, on accounts that sync product edits. */
function syncTargets(store: Store, productId: string): ListingRecord[] {
  return store.listingsOf(productId).filter((listing) => {
    const account = store.accounts.get(listing.channel_account_id);
    return listing.status !== 'delisted' && account?.sync.product_edits === true;
  });
}
