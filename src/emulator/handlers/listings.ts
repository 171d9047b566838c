/** GET /listings (every filter of the reference) and GET /listings/{id}. */
import { notFound } from '../errors.js';
import type { ListingRecord } from '../model.js';
import { paginate, parsePage, parseTimeParam, stringParam } from '../pagination.js';
import type { Handler } from '../router.js';

/** GET /listings: product_id, channel_account_id, channel (kind), status, error_code, updated_after. */
export const listListings: Handler = (store, request) => {
  const { query } = request;
  const page = parsePage(query);
  const productId = stringParam(query, 'product_id');
  const accountId = stringParam(query, 'channel_account_id');
  const channel = stringParam(query, 'channel');
  const status = stringParam(query, 'status');
  const errorCode = stringParam(query, 'error_code');
  const updatedAfter = parseTimeParam(query, 'updated_after');
  const envelope = paginate<ListingRecord>(
    store.listings.values(),
    { key: (listing) => listing.updated_at, direction: 'desc' },
    page,
    (listing) =>
      (productId === undefined || listing.product_id === productId) &&
      (accountId === undefined || listing.channel_account_id === accountId) &&
      (channel === undefined || listing.channel === channel) &&
      (status === undefined || listing.status === status) &&
      (errorCode === undefined || listing.issues.some((issue) => issue.code === errorCode)) &&
      (updatedAfter === undefined || listing.updated_at >= updatedAfter),
  );
  return { status: 200, body: envelope };
};

/** GET /listings/{id}. */
export const getListing: Handler = (store, request) => {
  const listing = store.listings.get(request.params.id);
  if (!listing) throw notFound(`No such listing: ${request.params.id}.`, 'id');
  return { status: 200, body: listing };
};
