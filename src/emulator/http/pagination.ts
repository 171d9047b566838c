/**
 * Keyset pagination with opaque cursors, and the query parameters every list shares.
 * A cursor holds the sort key and id of the last item returned; the next page starts
 * strictly after it, so an item never repeats within a crawl, and one updated mid-crawl
 * moves ahead of the cursor (which the contract allows).
 */
import { PAGE_LIMIT_DEFAULT, PAGE_LIMIT_MAX, PAGE_LIMIT_MIN } from '../../api/contract.js';
import { invalidParam } from './errors.js';

/** Where a page starts and how long it is. */
export interface PageRequest {
  limit: number;
  after: { key: string; id: string } | null;
}

/** The list envelope. */
export interface ListEnvelope<T> {
  object: 'list';
  data: T[];
  has_more: boolean;
  next_cursor: string | null;
}

/** A cursor for the position right after (key, id). */
export function encodeCursor(key: string, id: string): string {
  return Buffer.from(JSON.stringify({ k: key, i: id }), 'utf8').toString('base64url');
}

/** The position a cursor names; 400 `parameter_invalid` for one the emulator did not make. */
export function decodeCursor(cursor: string): { key: string; id: string } {
  const unreadable = () =>
    invalidParam('cursor', 'The cursor is not one this service issued; start the list again.');
  if (!/^[A-Za-z0-9_-]+$/.test(cursor)) throw unreadable();
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw unreadable();
  }
  const record = parsed as { k?: unknown; i?: unknown } | null;
  if (!record || typeof record !== 'object' || typeof record.k !== 'string' || typeof record.i !== 'string') {
    throw unreadable();
  }
  return { key: record.k, id: record.i };
}

/** `limit` (1 to 100, default 25) and `cursor` from a query; 400 when either is bad. */
export function parsePage(query: URLSearchParams): PageRequest {
  const rawLimit = query.get('limit');
  let limit = PAGE_LIMIT_DEFAULT;
  if (rawLimit !== null) {
    limit = /^\d+$/.test(rawLimit) ? Number(rawLimit) : Number.NaN;
    if (!(limit >= PAGE_LIMIT_MIN && limit <= PAGE_LIMIT_MAX)) {
      throw invalidParam('limit', `limit must be an integer from ${PAGE_LIMIT_MIN} to ${PAGE_LIMIT_MAX}.`);
    }
  }
  const cursor = query.get('cursor');
  return { limit, after: cursor ? decodeCursor(cursor) : null };
}

const ISO_TIME = /^\d{4}-\d{2}-\d{2}(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/i;

/** A date-time query parameter as a normalized UTC ISO string; undefined when absent. */
export function parseTimeParam(query: URLSearchParams, name: string): string | undefined {
  const raw = query.get(name);
  if (raw === null || raw === '') return undefined;
  const match = ISO_TIME.exec(raw);
  // A time without an offset is UTC, as the CLI documents; JavaScript would read it as local.
  const text = match && match[1] !== undefined && match[4] === undefined ? `${raw}Z` : raw;
  const ms = match ? Date.parse(text.replace(' ', 'T')) : Number.NaN;
  if (Number.isNaN(ms)) {
    throw invalidParam(name, `${name} must be an ISO 8601 date-time such as 2025-01-31T09:00:00Z.`);
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
  direction: 'desc' | 'asc';
}

/**
 * One page of `items` that pass `filter`, in `order`, after the page's cursor.
 * It keeps only the best `limit + 1` candidates while scanning, so a page over tens of
 * thousands of items costs one pass, not a sort.
 */
export function paginate<T extends { id: string }>(
  items: Iterable<T>,
  order: ListOrder<T>,
  page: PageRequest,
  filter: (item: T) => boolean = () => true,
): ListEnvelope<T> {
  const sign = order.direction === 'desc' ? -1 : 1;
  // Negative when a comes first in the list.
  const compare = (aKey: string, aId: string, bKey: string, bId: string): number => {
    if (aKey !== bKey) return aKey < bKey ? -sign : sign;
    if (aId === bId) return 0;
    return aId < bId ? -sign : sign;
  };
  const capacity = page.limit + 1;
  const best: { item: T; key: string }[] = [];
  for (const item of items) {
    const key = order.key(item);
    if (page.after && compare(key, item.id, page.after.key, page.after.id) <= 0) continue;
    if (best.length === capacity) {
      const last = best[capacity - 1];
      if (compare(key, item.id, last.key, last.item.id) >= 0) continue;
    }
    if (!filter(item)) continue;
    let position = best.length;
    while (position > 0 && compare(key, item.id, best[position - 1].key, best[position - 1].item.id) < 0) {
      position--;
    }
    best.splice(position, 0, { item, key });
    if (best.length > capacity) best.pop();
  }
  const hasMore = best.length > page.limit;
  const pageItems = hasMore ? best.slice(0, page.limit) : best;
  const last = pageItems[pageItems.length - 1];
  return {
    object: 'list',
    data: pageItems.map((entry) => entry.item),
    has_more: hasMore,
    next_cursor: hasMore && last ? encodeCursor(last.key, last.item.id) : null,
  };
}

/** A whole list in one envelope, for lists too short to page (channel accounts, policies). */
export function listAll<T>(data: T[]): ListEnvelope<T> {
  return { object: 'list', data, has_more: false, next_cursor: null };
}
