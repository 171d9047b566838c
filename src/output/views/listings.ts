/** How listings are shown. */
import { ENDPOINTS } from '../../contract/endpoints.js';
import { requestLine } from '../../contract/operations/operation.js';
import type { Listing, ListingInput, ListingUpdate } from '../../contract/schemas/listing.js';
import type { Operation } from '../../contract/schemas/operation.js';
import type { RetryPlanned } from '../../core/listings/cause.js';
import type { ErrorGroup } from '../../core/listings/error-summary.js';
import type { RetryVerdict } from '../../core/listings/retry.js';
import type { CauseTally, RetryChoice } from '../../core/listings/retry-choices.js';
import type { View } from '../view.js';
import { operationText } from './operations.js';

/** What a listings table knows beyond the listings: names to show, and what the filters fixed. */
export interface ListingsViewOptions {
  /** The store's account labels (one read): ACCOUNT names the account instead of a bare chac_ id. */
  labels?: ReadonlyMap<string, string>;
  /** Product titles by product id, for listings without a title override (one read per product). */
  titles?: ReadonlyMap<string, string>;
  /** Columns a filter fixed (`--status error`: every row says error): the first to go on a narrow terminal. */
  fixed?: { status?: boolean; channel?: boolean; account?: boolean };
}

/**
 * Listings: where each product is published and what the channel said. On a narrow terminal
 * what a filter fixed goes first, then times and second ids; the id and the issues stay whole.
 */
export function listingsView(options: ListingsViewOptions = {}): View<Listing> {
  const { labels, titles, fixed = {} } = options;
  const first = (isFixed: boolean | undefined, turn?: number) => (isFixed ? 0 : turn);
  return {
    columns: [
      { header: 'ID', cell: (l) => l.id },
      { header: 'PRODUCT', cell: (l) => l.product_id, drop: 2 },
      {
        header: 'TITLE',
        cell: (l) => l.overrides?.title ?? titles?.get(l.product_id) ?? '',
        shrink: true,
        hideEmpty: true,
      },
      { header: 'CHANNEL', cell: (l) => l.channel ?? '', drop: first(fixed.channel, 3) },
      {
        header: 'ACCOUNT',
        cell: (l) => labels?.get(l.channel_account_id) || l.channel_account_id,
        shrink: labels !== undefined,
        drop: first(fixed.account),
      },
      { header: 'STATUS', cell: (l) => l.status, drop: first(fixed.status) },
      {
        header: 'ISSUES',
        cell: (l) => (l.issues ?? []).map((issue) => issue.code).join(', '),
        wrap: 'text',
      },
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

/**
 * A retry's dry run: each listing in error, whether it would be sent, and why (what the cause
 * check found); accounts by the store's labels when given.
 */
export function retryPlanView(labels?: ReadonlyMap<string, string>): View<Listing & { retry: RetryPlanned }> {
  return {
    columns: [
      { header: 'ID', cell: (l) => l.id },
      { header: 'PRODUCT', cell: (l) => l.product_id, drop: 2 },
      { header: 'CHANNEL', cell: (l) => l.channel ?? '', drop: 3 },
      {
        header: 'ACCOUNT',
        cell: (l) => labels?.get(l.channel_account_id) || l.channel_account_id,
        shrink: labels !== undefined,
      },
      { header: 'SEND', cell: (l) => (l.retry.send ? 'yes' : 'no') },
      { header: 'WHY', cell: (l) => l.retry.reason, wrap: 'text' },
      { header: 'UPDATED', time: (l) => l.updated_at, drop: 1 },
    ],
    fields: [...LISTING_FIELDS, 'retry.send', 'retry.cause', 'retry.reason'],
  };
}

/** Listings still failing (or pending) after `listings retry --wait`: one row each, with the issue. */
export const retryVerdictsView: View<RetryVerdict> = {
  columns: [
    { header: 'LISTING', cell: (v) => v.listing_id },
    { header: 'STATUS', cell: (v) => v.status },
    { header: 'CODE', cell: (v) => v.code ?? '' },
    // Why it still fails and what to do: wrapped on a narrow terminal, never cut.
    { header: 'MESSAGE', cell: (v) => v.message ?? '', wrap: 'text' },
    { header: 'OPERATION', cell: (v) => v.operation_id },
  ],
  fields: ['listing_id', 'status', 'code', 'message', 'operation_id'],
};

/** "list_1 (prod_2 on chac_3, etsy): ongoing, operation op_4", then one line per issue. */
export function listingText(listing: Listing): string {
  const where = `${listing.product_id} on ${listing.channel_account_id}${listing.channel ? `, ${listing.channel}` : ''}`;
  const operation = listing.operation_id ? `, operation ${listing.operation_id}` : '';
  const issues = (listing.issues ?? []).map((issue) =>
    `\n  ${issue.severity ?? 'issue'} ${issue.code}: ${issue.message ?? ''}`.trimEnd(),
  );
  return `${listing.id} (${where}): ${listing.status}${operation}${issues.join('')}`;
}

/** A listing after --wait: the listing as it now is, then the operation that changed it and its results. */
export function followedListingText(listing: Listing, operation: Operation): string {
  return `${listingText(listing)}\n${operationText(operation)}`;
}

/** What an update's dry run would have sent. */
export function updateDryRunText(id: string, body: ListingUpdate): string {
  return `Dry run: would send ${requestLine(ENDPOINTS.updateListing, { id })} ${JSON.stringify(body)}. Nothing was sent.`;
}

/** What a publish's dry run would have sent. */
export function publishDryRunText(input: ListingInput): string {
  return `Dry run: would send ${requestLine(ENDPOINTS.createListing)} ${JSON.stringify(input)}. Nothing was sent.`;
}

/**
 * Listings in error (`listings errors`): one row per issue code and channel kind, or per
 * account with `byAccount` (named by the store's labels when given), with the retry for each.
 */
export function errorsView(byAccount: boolean, labels?: ReadonlyMap<string, string>): View<ErrorGroup> {
  return {
    columns: [
      { header: 'CODE', cell: (g) => g.error_code, wrap: 'text' },
      { header: 'CHANNEL', cell: (g) => g.channel },
      ...(byAccount
        ? [
            {
              header: 'ACCOUNT',
              cell: (g: ErrorGroup) =>
                labels?.get(g.channel_account_id ?? '') || (g.channel_account_id ?? ''),
              shrink: labels !== undefined,
              drop: 3,
            },
          ]
        : []),
      { header: 'LISTINGS', cell: (g) => g.listings.toLocaleString('en-US') },
      { header: 'OLDEST', time: (g) => g.oldest_updated_at, drop: 1 },
      { header: 'NEWEST', time: (g) => g.newest_updated_at, drop: 2 },
      // What to do next: never cut nor left out; on a narrow terminal it wraps, still pasteable.
      { header: 'RETRY', cell: (g) => g.retry, wrap: 'command' },
    ],
    fields: [
      'error_code',
      'channel',
      ...(byAccount ? ['channel_account_id'] : []),
      'listings',
      'oldest_updated_at',
      'newest_updated_at',
      'retry',
    ],
  };
}

/** What the check before a retry found of a group: "8 look fixed, 4 unchanged", "not checked". */
export function causeWords(causes: CauseTally | undefined): string {
  if (!causes) return 'no code to retry by';
  const { fixed, unchanged, unknown } = causes;
  if (fixed === 0 && unchanged === 0) return 'svc cannot tell';
  const n = (value: number) => value.toLocaleString('en-US');
  return [
    fixed > 0 ? `${n(fixed)} ${fixed === 1 ? 'looks' : 'look'} fixed` : '',
    unchanged > 0 ? `${n(unchanged)} unchanged` : '',
    unknown > 0 ? `${n(unknown)} cannot tell` : '',
  ]
    .filter(Boolean)
    .join(', ');
}

/**
 * The errors summary as lines to choose from (`listings retry` at a terminal): code, channel,
 * listings, and whether the cause looks fixed, aligned as a table fitted to `width`.
 */
export async function retryChoiceRows(
  choices: readonly RetryChoice[],
  width?: number,
): Promise<{ header: string; rows: string[] }> {
  const { renderTable } = await import('../table.js');
  const headers = ['CODE', 'CHANNEL', 'LISTINGS', 'CAUSE'];
  const rows = choices.map((choice) => [
    choice.error_code,
    choice.channel,
    choice.listings.toLocaleString('en-US'),
    causeWords(choice.causes),
  ]);
  const text = await renderTable(headers, rows, false, {
    width,
    shrinkable: [true, false, false, true],
  });
  const [header = '', ...lines] = text.trimEnd().split('\n');
  return { header, rows: lines };
}
