/**
 * Keyset pagination with opaque cursors, and the query parameters every list shares.
 * A cursor holds the sort key and id of the last item returned; the next page starts
 * strictly after it, so an item never repeats within a crawl, and one updated mid-crawl
 * moves ahead of the cursor (which the contract allows). It also holds a hash of the list it
 * belongs to (path and filters), so it is refused by any other list or filter.
 */
import { createHash } from 'node:crypto';
import { PAGE_LIMIT_DEFAULT, PAGE_LIMIT_MAX, PAGE_LIMIT_MIN } from '../../contract/contract.js';
import { CURSOR_PATTERN } from '../../contract/queries.js';
import { parseDateTime } from '../../contract/rules/date-time.js';
import type { IndexedMap, Where } from '../store/indexed-map.js';
import {
  type Direction,
  type ListPosition,
  type Page,
  type PageQuery,
  SortedIndex,
  takePage,
} from '../store/sorted-index.js';
import { invalidParam } from './errors.js';

/** Where a page starts and how long it is. */
export interface PageRequest {
  limit: number;
  after: ListPosition | null;
  /** The list and filters the page belongs to, as its cursors carry them (parsePage sets it). */
  scope?: string;
}

/** What a list request is read from: its path and its query. */
export interface ListRequest {
  path: string;
  query: URLSearchParams;
}

/** The list envelope. */
export interface ListEnvelope<T> {
  object: 'list';
  data: T[];
  has_more: boolean;
  next_cursor: string | null;
}

/** The query parameters that pick a page, not the list: every other one is a filter. */
const PAGING_PARAMS = new Set(['cursor', 'limit']);

/**
 * What a cursor is bound to: the list's path and its filters (empty ones are absent ones, and
 * their order does not matter), hashed. The sort key is the list's own, so the path names it.
 */
function listScope(request: ListRequest): string {
  const filters = [...request.query]
    .filter(([name, value]) => !PAGING_PARAMS.has(name) && value !== '')
    .sort(([a, x], [b, y]) => (a === b ? (x < y ? -1 : x > y ? 1 : 0) : a < b ? -1 : 1));
  let path = request.path;
  try {
    path = decodeURIComponent(path);
  } catch {
    // An undecodable path never reaches a list handler; keep it as sent.
  }
  return createHash('sha256')
    .update(JSON.stringify([path, filters]))
    .digest('base64url')
    .slice(0, 16);
}

/** A cursor for the position right after (key, id) in the list `scope` names. */
export function encodeCursor(key: string, id: string, scope: string): string {
  return Buffer.from(JSON.stringify({ k: key, i: id, s: scope }), 'utf8').toString('base64url');
}

/**
 * The position a cursor names; 400 `parameter_invalid` for one the emulator did not make, or
 * made for another list or other filters.
 */
export function decodeCursor(cursor: string, scope: string): { key: string; id: string } {
  const unreadable = () =>
    invalidParam('cursor', 'The cursor is not one this service issued; start the list again.');
  if (!CURSOR_PATTERN.test(cursor)) throw unreadable();
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw unreadable();
  }
  const record = parsed as { k?: unknown; i?: unknown; s?: unknown } | null;
  if (!record || typeof record !== 'object' || typeof record.k !== 'string' || typeof record.i !== 'string') {
    throw unreadable();
  }
  if (record.s !== scope) {
    throw invalidParam(
      'cursor',
      'The cursor belongs to another list or to other filters; use it with the request that returned it, or start the list again.',
    );
  }
  return { key: record.k, id: record.i };
}

/** `limit` (1 to 100, default 25) and `cursor` of a list request; 400 when either is bad. */
export function parsePage(request: ListRequest): PageRequest {
  const { query } = request;
  const rawLimit = query.get('limit');
  let limit = PAGE_LIMIT_DEFAULT;
  if (rawLimit !== null) {
    limit = /^\d+$/.test(rawLimit) ? Number(rawLimit) : Number.NaN;
    if (!(limit >= PAGE_LIMIT_MIN && limit <= PAGE_LIMIT_MAX)) {
      throw invalidParam('limit', `limit must be an integer from ${PAGE_LIMIT_MIN} to ${PAGE_LIMIT_MAX}.`);
    }
  }
  const cursor = query.get('cursor');
  const scope = listScope(request);
  return { limit, after: cursor ? decodeCursor(cursor, scope) : null, scope };
}

/**
 * A date-time query parameter as a normalized UTC ISO string; undefined when absent. Anything
 * but an RFC 3339 date-time with its offset (an empty value included) is 400 naming it.
 */
export function parseTimeParam(query: URLSearchParams, name: string): string | undefined {
  const raw = query.get(name);
  if (raw === null) return undefined;
  const ms = parseDateTime(raw);
  if (ms === undefined) {
    throw invalidParam(
      name,
      `${name} must be an RFC 3339 date-time with an offset, such as 2025-01-31T09:00:00Z; got ${JSON.stringify(raw)}.`,
    );
  }
  return new Date(ms).toISOString();
}

/** A plain string filter; undefined when absent or empty. */
export function stringParam(query: URLSearchParams, name: string): string | undefined {
  const value = query.get(name);
  return value === null || value === '' ? undefined : value;
}

/** How a list sorts: by a string key (ISO timestamps sort as strings), ties broken by id. */
export interface ListOrder<T> {
  key: (item: T) => string;
  direction: Direction;
}

/** The list envelope of a page, with the cursor of its last item when more follow. */
export function envelope<T extends { id: string }>(
  page: Page<T>,
  key: (item: T) => string,
  scope = '',
): ListEnvelope<T> {
  const last = page.items[page.items.length - 1];
  return {
    object: 'list',
    data: page.items,
    has_more: page.hasMore,
    next_cursor: page.hasMore && last ? encodeCursor(key(last), last.id, scope) : null,
  };
}

/**
 * One page of a store list: read from the cursor on, in the index that best covers the
 * `where` filters, until the page is full or `query.stop` ends the list.
 */
export function listPage<T extends { id: string }>(
  list: IndexedMap<T>,
  page: PageRequest,
  where: readonly Where[],
  query: PageQuery<T> = {},
): ListEnvelope<T> {
  return envelope(list.page(page.after, page.limit, where, query), list.spec.key, page.scope);
}

/** One page of `items` that pass `filter`, in `order`, for short lists held in an array. */
export function paginate<T extends { id: string }>(
  items: Iterable<T>,
  order: ListOrder<T>,
  page: PageRequest,
  filter?: (item: T) => boolean,
): ListEnvelope<T> {
  const sorted = new SortedIndex(order.key);
  sorted.load([...items]);
  return envelope(
    takePage(sorted.from(order.direction, page.after), page.limit, { filter }),
    order.key,
    page.scope,
  );
}

/** Ends a newest-first list at the first item older than `bound` (none when it is undefined). */
export function olderThan<T>(
  bound: string | undefined,
  key: (item: T) => string,
): ((item: T) => boolean) | undefined {
  return bound === undefined ? undefined : (item) => key(item) < bound;
}

/** A whole list in one envelope, for lists too short to page (channel accounts, policies). */
export function listAll<T>(data: T[]): ListEnvelope<T> {
  return { object: 'list', data, has_more: false, next_cursor: null };
}
