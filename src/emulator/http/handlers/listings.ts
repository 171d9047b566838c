/**
 * Listings: GET (every filter of docs/service-contract.md), publish one or a batch, update or resync,
 * delist. Every write answers `ongoing` with a new operation; channels.ts settles it later.
 * Test keys get the same answers with `simulated` operations, and nothing changes.
 */
import { ERROR_CODES, ERROR_TYPES, OPERATION_TERMINAL_STATUSES } from '../../../contract/contract.js';
import { OPERATIONS, requestLine } from '../../../contract/operations.js';
import { ListingBatchInput, ListingInput, ListingUpdate } from '../../../contract/schemas/listing.js';
import { isoTime } from '../../clock.js';
import type { ListingRecord } from '../../model.js';
import type { Store } from '../../store/store.js';
import { snapshot } from '../../store/views.js';
import { HttpError, notFound } from '../errors.js';
import { listPage, olderThan, parsePage, parseTimeParam, stringParam } from '../pagination.js';
import type { EmulatorRequest, Handler } from '../router.js';
import { validateBatch, validateBody } from '../validation.js';

/** GET /listings: product_id, channel_account_id, channel (kind), status, error_code, updated_after. */
export const listListings: Handler = (store, request) => {
  const { query } = request;
  const page = parsePage(request);
  const productId = stringParam(query, 'product_id');
  const accountId = stringParam(query, 'channel_account_id');
  const channel = stringParam(query, 'channel');
  const status = stringParam(query, 'status');
  const errorCode = stringParam(query, 'error_code');
  const updatedAfter = parseTimeParam(query, 'updated_after');
  const envelope = listPage<ListingRecord>(
    store.listings,
    page,
    [
      ['product_id', productId],
      ['channel_account_id', accountId],
      ['channel', channel],
      ['status', status],
      ['error_code', errorCode],
    ],
    {
      filter: (listing) =>
        (productId === undefined || listing.product_id === productId) &&
        (accountId === undefined || listing.channel_account_id === accountId) &&
        (channel === undefined || listing.channel === channel) &&
        (status === undefined || listing.status === status) &&
        (errorCode === undefined || listing.issues.some((issue) => issue.code === errorCode)),
      stop: olderThan(updatedAfter, (listing) => listing.updated_at),
    },
  );
  return { status: 200, body: envelope };
};

/** GET /listings/{id}. */
export const getListing: Handler = (store, request) => {
  const listing = store.listings.get(request.params.id);
  if (!listing) throw notFound(`No such listing: ${request.params.id}.`, 'id');
  return { status: 200, body: listing };
};

/** POST /listings: 201 `ongoing` with its operation; 409 listing_exists naming the listing. */
export const createListing: Handler = (store, request) => {
  const input = validateBody(ListingInput, request.body);
  const listing = publish(store, input, isTest(request), new Set());
  return { status: 201, body: snapshot(listing) };
};

/** POST /listings/batch: 1 to 100 items, each `created` or `failed` on its own. */
export const createListingBatch: Handler = (store, request) => {
  const input = validateBatch(ListingBatchInput, request.body);
  const simulate = isTest(request);
  const published = new Set<string>();
  const data = input.items.map((item, index) => {
    try {
      // An item applies whole or not at all; the items before it stay.
      return {
        index,
        status: 'created',
        id: store.savepoint(() => publish(store, item, simulate, published)).id,
      };
    } catch (error) {
      if (!(error instanceof HttpError)) throw error;
      return { index, status: 'failed', error: { code: error.code, message: error.message } };
    }
  });
  return { status: 200, body: { object: 'batch_result', data } };
};

/** PATCH /listings/{id}: merge overrides and attributes (null removes one); `{}` is a plain resync. */
export const updateListing: Handler = (store, request) => {
  const input = validateBody(ListingUpdate, request.body);
  const listing = writableListing(store, request.params.id, 'update');
  const target = isTest(request) ? snapshot(listing) : listing;
  if (input.overrides) target.overrides = merge(target.overrides, input.overrides);
  if (input.attributes) target.attributes = merge(target.attributes, input.attributes);
  restart(store, target, 'listing.update', isTest(request));
  return { status: 200, body: snapshot(target) };
};

/** DELETE /listings/{id}: `ongoing` now, `delisted` when its operation completes. */
export const deleteListing: Handler = (store, request) => {
  const listing = writableListing(store, request.params.id, 'delist');
  const target = isTest(request) ? snapshot(listing) : listing;
  restart(store, target, 'listing.delist', isTest(request));
  return { status: 200, body: snapshot(target) };
};

const OPERATION_TERMINAL = new Set<string>(OPERATION_TERMINAL_STATUSES);

function isTest(request: EmulatorRequest): boolean {
  return request.key?.mode === 'test';
}

function conflict(code: string, message: string, param?: string): HttpError {
  return new HttpError(409, ERROR_TYPES.invalidRequest, code, message, { param });
}

/** Create one listing (or, for a test key, answer as if): checks, record, operation, event. */
function publish(
  store: Store,
  input: ListingInput,
  simulate: boolean,
  published: Set<string>,
): ListingRecord {
  const account = store.accounts.get(input.channel_account_id);
  if (!account) throw notFound(`No such channel account: ${input.channel_account_id}.`, 'channel_account_id');
  const product = store.products.get(input.product_id);
  if (!product) throw notFound(`No such product: ${input.product_id}.`, 'product_id');
  const pair = `${product.id}|${account.id}`;
  const existing = store
    .listingsOf(product.id)
    .find((listing) => listing.channel_account_id === account.id && listing.status !== 'delisted');
  if (existing || published.has(pair)) {
    const named = existing ? ` as ${existing.id} (${existing.status})` : ' earlier in this batch';
    throw conflict(
      ERROR_CODES.listingExists,
      `Product ${product.id} is already listed on ${account.id}${named}; update or resync that listing instead.`,
      'product_id',
    );
  }
  published.add(pair);
  const now = isoTime(store.now());
  const id = store.ids.next('list');
  const operation = store.createOperation(
    {
      type: 'listing.publish',
      resource_type: 'listing',
      resource_id: id,
      results: [{ channel_account_id: account.id, listing_id: id, sku: null }],
    },
    { simulate },
  );
  const listing: ListingRecord = {
    id,
    object: 'listing',
    product_id: product.id,
    channel_account_id: account.id,
    channel: account.channel,
    status: 'ongoing',
    id_on_channel: null,
    url_on_channel: null,
    site: siteOf(store, account.id),
    overrides: { ...input.overrides },
    attributes: withoutNulls(input.attributes ?? {}),
    variants: product.variants.map((variant) => ({
      variant_id: variant.id,
      sku: variant.sku,
      id_on_channel: null,
      status: 'pending',
    })),
    issues: [],
    operation_id: operation.id,
    created_at: now,
    updated_at: now,
  };
  if (!simulate) {
    store.putListing(listing);
    store.emitEvent('listing.status_changed', listing);
  }
  return listing;
}

/**
 * A listing that can still be written to: known, not delisted, and no delist under way. A
 * write during a pending delist would become the listing's latest operation and put it back
 * on the channel, while the client that sent the delist believes it gone.
 */
function writableListing(store: Store, id: string, verb: string): ListingRecord {
  const listing = store.listings.get(id);
  if (!listing) throw notFound(`No such listing: ${id}.`, 'id');
  const again = verb === 'delist' ? 'be delisted again' : 'be updated';
  if (listing.status === 'delisted') {
    throw conflict(
      ERROR_CODES.invalidState,
      `Listing ${id} is delisted; it cannot ${again}. Publish the product again with ${requestLine(OPERATIONS.createListing)}.`,
    );
  }
  const pending = listing.operation_id === null ? undefined : store.operations.get(listing.operation_id);
  if (pending?.type === 'listing.delist' && !OPERATION_TERMINAL.has(pending.status)) {
    throw conflict(
      ERROR_CODES.invalidState,
      `Listing ${id} is being delisted by operation ${pending.id} (${pending.status}); it cannot ${again}. Follow that operation, then publish the product again with ${requestLine(OPERATIONS.createListing)}.`,
    );
  }
  return listing;
}

/** Send the listing to its channel again: `ongoing`, with a new operation. */
function restart(store: Store, listing: ListingRecord, type: string, simulate: boolean): void {
  const operation = store.createOperation(
    {
      type,
      resource_type: 'listing',
      resource_id: listing.id,
      results: [{ channel_account_id: listing.channel_account_id, listing_id: listing.id, sku: null }],
    },
    { simulate },
  );
  const before = listing.status;
  store.listings.update(listing, () => {
    listing.operation_id = operation.id;
    listing.status = 'ongoing';
    listing.updated_at = isoTime(store.now());
  });
  if (!simulate && before !== 'ongoing') store.emitEvent('listing.status_changed', listing);
}

function merge<T extends Record<string, unknown>>(current: T, change: Record<string, unknown>): T {
  return withoutNulls({ ...current, ...change }) as T;
}

function withoutNulls(values: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(values).filter(([, value]) => value !== null && value !== undefined),
  );
}

/** The site an account's listings carry (accounts do not expose it); US when it has none yet. */
function siteOf(store: Store, accountId: string): string {
  for (const listing of store.listings.values())
    if (listing.channel_account_id === accountId) return listing.site;
  return 'US';
}
