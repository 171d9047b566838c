/** How listings are shown. */
import type { Listing } from '../../api/schemas/listing.js';
import type { RetryVerdict } from '../../core/listings/retry.js';
import { age, type View } from '../view.js';

/** Listings: where each product is published and what the channel said. */
export const listingsView: View<Listing> = {
  columns: [
    { header: 'ID', cell: (l) => l.id },
    { header: 'PRODUCT', cell: (l) => l.product_id },
    { header: 'CHANNEL', cell: (l) => l.channel ?? '' },
    { header: 'ACCOUNT', cell: (l) => l.channel_account_id },
    { header: 'STATUS', cell: (l) => l.status },
    { header: 'ISSUES', cell: (l) => (l.issues ?? []).map((issue) => issue.code).join(', ') },
    { header: 'UPDATED', cell: (l, now) => age(l.updated_at, now) },
  ],
  fields: [
    'id',
    'product_id',
    'channel',
    'channel_account_id',
    'status',
    'id_on_channel',
    'url_on_channel',
    'site',
    'issues',
    'operation_id',
    'created_at',
    'updated_at',
  ],
};

/** Listings still failing (or pending) after `listings retry --wait`: one row each, with the issue. */
export const retryVerdictsView: View<RetryVerdict> = {
  columns: [
    { header: 'LISTING', cell: (v) => v.listing_id },
    { header: 'STATUS', cell: (v) => v.status },
    { header: 'CODE', cell: (v) => v.code ?? '' },
    { header: 'MESSAGE', cell: (v) => v.message ?? '' },
    { header: 'OPERATION', cell: (v) => v.operation_id },
  ],
  fields: ['listing_id', 'status', 'code', 'message', 'operation_id'],
};
