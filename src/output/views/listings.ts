/** How listings are shown. */
import type { Listing } from '../../contract/schemas/listing.js';
import type { RetryVerdict } from '../../core/listings/retry.js';
import type { View } from '../view.js';

/**
 * Listings: where each product is published and what the channel said. With the store's
 * account labels (one read), ACCOUNT names the account instead of showing a bare chac_ id.
 */
export function listingsView(accountLabels?: ReadonlyMap<string, string>): View<Listing> {
  return {
    columns: [
      { header: 'ID', cell: (l) => l.id },
      { header: 'PRODUCT', cell: (l) => l.product_id, drop: 2 },
      { header: 'TITLE', cell: (l) => l.overrides?.title ?? '', shrink: true, hideEmpty: true },
      { header: 'CHANNEL', cell: (l) => l.channel ?? '', drop: 3 },
      {
        header: 'ACCOUNT',
        cell: (l) => accountLabels?.get(l.channel_account_id) || l.channel_account_id,
        shrink: accountLabels !== undefined,
      },
      { header: 'STATUS', cell: (l) => l.status },
      { header: 'ISSUES', cell: (l) => (l.issues ?? []).map((issue) => issue.code).join(', '), shrink: true },
      { header: 'UPDATED', time: (l) => l.updated_at, drop: 1 },
    ],
    fields: LISTING_FIELDS,
  };
}

const LISTING_FIELDS = [
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
];

/** Listings still failing (or pending) after `listings retry --wait`: one row each, with the issue. */
export const retryVerdictsView: View<RetryVerdict> = {
  columns: [
    { header: 'LISTING', cell: (v) => v.listing_id },
    { header: 'STATUS', cell: (v) => v.status },
    { header: 'CODE', cell: (v) => v.code ?? '' },
    { header: 'MESSAGE', cell: (v) => v.message ?? '', shrink: true },
    { header: 'OPERATION', cell: (v) => v.operation_id },
  ],
  fields: ['listing_id', 'status', 'code', 'message', 'operation_id'],
};
