/**
 * The one pager behind every list: follows `next_cursor` page by page, asking each page
 * for no more items than are still wanted.
 */

import { PAGE_LIMIT_MAX, PAGE_LIMIT_MIN } from '../contract/contract.js';
import { ProtocolError } from '../errors.js';
import type { ListEnvelope } from './types.js';

/** Empty pages in a row that say more follows before a crawl is taken for a loop. */
const MAX_EMPTY_PAGES_IN_A_ROW = 20;

/** Fetches one page: `cursor` is undefined for the first, `pageLimit` is 1 to 100. */
export type FetchPage<T> = (cursor: string | undefined, pageLimit: number) => Promise<ListEnvelope<T>>;

/** How many items to yield in all (undefined: every item), and the most any page asks for. */
export interface PaginateOptions {
  limit?: number;
  /**
   * The field the list sorts on, newest first, then id (contract.ts, LIST_ORDER): an item that
   * does not sort strictly after the one before it is a repeat (or the pager is broken).
   */
  orderedBy?: 'updated_at' | 'created_at';
  /** 1 to 100; default 100, so that a crawl takes as few requests as it can. */
  pageSize?: number;
  /** Told, when the crawl ends by itself, whether the service holds more than `limit` let through. */
  onEnd?: (hasMore: boolean) => void;
  /**
   * Ask for the next page as soon as a page arrives, while its items are read and yielded
   * (a consumer that stops early leaves one page asked for in vain): for crawls read to the end.
   */
  readAhead?: boolean;
}

/**
 * One list as `paginate` crawls it, each iteration a new crawl; after one ended, `hasMore`
 * says whether it stopped at its limit with more items on the service (so a "showing the
 * first N" hint is said only when there is more to show).
 */
export class PagedList<T> implements AsyncIterable<T> {
  /** Undefined until a crawl ended by itself. */
  hasMore?: boolean;

  constructor(
    private readonly fetchPage: FetchPage<T>,
    private readonly options: Omit<PaginateOptions, 'onEnd'> = {},
  ) {}

  [Symbol.asyncIterator](): AsyncIterator<T> {
    const onEnd = (hasMore: boolean) => {
      this.hasMore = hasMore;
    };
    return paginate(this.fetchPage, { ...this.options, onEnd })[Symbol.asyncIterator]();
  }
}

/** Yields the items of a list in order, page by page, stopping after `limit` items or the last page. */
export async function* paginate<T>(
  fetchPage: FetchPage<T>,
  options: PaginateOptions = {},
): AsyncGenerator<T> {
  const { limit, pageSize = PAGE_LIMIT_MAX } = options;
  if (limit !== undefined && (!Number.isInteger(limit) || limit < 0)) {
    throw new RangeError(`limit must be a non-negative integer, got ${limit}`);
  }
  if (!Number.isInteger(pageSize) || pageSize < PAGE_LIMIT_MIN || pageSize > PAGE_LIMIT_MAX) {
    throw new RangeError(
      `pageSize must be an integer from ${PAGE_LIMIT_MIN} to ${PAGE_LIMIT_MAX}, got ${pageSize}`,
    );
  }
  let left = limit ?? Number.POSITIVE_INFINITY;
  let cursor: string | undefined;
  // What a crawl remembers is one page, whatever its length: a repeat is told by the list's
  // order where it has one, and by the ids of this page and the one before; a server that
  // hands back a recent cursor, or pages emptily without end, would loop forever.
  const recentCursors: string[] = [];
  const repeats = new RepeatCheck(options.orderedBy);
  let emptyInARow = 0;
  let coming: Promise<ListEnvelope<T>> | undefined;
  while (left > 0) {
    const page: ListEnvelope<T> = await (coming ?? fetchPage(cursor, Math.min(pageSize, left)));
    coming = undefined;
    const items = page.data ?? [];
    const after = left - items.length;
    const ahead = page.next_cursor;
    if (
      options.readAhead &&
      after > 0 &&
      page.has_more !== false &&
      typeof ahead === 'string' &&
      ahead !== '' &&
      ahead !== cursor &&
      !recentCursors.includes(ahead) &&
      items.length > 0
    ) {
      coming = fetchPage(ahead, Math.min(pageSize, after));
      // Awaited on the next turn; a crawl stopped before then leaves it unread.
      coming.catch(() => {});
    }
    repeats.nextPage();
    for (const [index, raw] of items.entries()) {
      const item = page.read ? page.read(raw, index) : raw;
      // An item beyond the limit: the list goes on.
      if (left <= 0) return options.onEnd?.(true);
      repeats.check(item);
      left -= 1;
      yield item;
    }
    // The last page says has_more: false; clients also accept an absent or empty next_cursor
    // there (docs/service-contract.md, Lists). A page that says more follows needs a cursor to it.
    // Anything but a boolean is no answer to "is there more?": never taken for the end. (Lists
    // that never page, channel accounts and policies, leave it out: that is the end.)
    if (page.has_more !== undefined && typeof page.has_more !== 'boolean') {
      throw new ProtocolError(
        `the service said has_more: ${JSON.stringify(page.has_more) ?? 'nothing'} (not true or false); stopped, as whether the list goes on cannot be told`,
      );
    }
    if (page.has_more === false) return options.onEnd?.(false);
    const next = page.next_cursor;
    const usable = typeof next === 'string' && next !== '';
    if (page.has_more === true && !usable) {
      // The limit is reached: the rest is not wanted, and the page says there is more.
      if (left <= 0) return options.onEnd?.(true);
      throw new ProtocolError(
        `the service said has_more: true on a page without a usable next_cursor (${next === undefined ? 'absent' : JSON.stringify(next)}); stopped, as the rest of the list cannot be reached`,
      );
    }
    if (!usable) return options.onEnd?.(false);
    if (next === cursor || recentCursors.includes(next)) {
      throw new ProtocolError(
        `the service returned next_cursor "${next}", already seen in this crawl; stopped so as not to loop`,
      );
    }
    emptyInARow = items.length === 0 ? emptyInARow + 1 : 0;
    if (emptyInARow >= MAX_EMPTY_PAGES_IN_A_ROW) {
      throw new ProtocolError(
        `the service returned ${emptyInARow} empty pages in a row that each said more would follow; stopped`,
      );
    }
    recentCursors.push(next);
    if (recentCursors.length > RECENT_CURSORS) recentCursors.shift();
    cursor = next;
  }
  // The limit was reached at the end of a page that says more follows.
  options.onEnd?.(true);
}

/** Cursors a crawl remembers to tell a loop of pages (beyond them, the order or the ids tell). */
const RECENT_CURSORS = 2;

/**
 * Tells an item a crawl already yielded, holding a page of ids and the item before: in a list
 * with an order, each item must sort strictly after the one before it (newest first, then id
 * descending); in any list, an id must not be on this page or the one before.
 */
class RepeatCheck {
  private before?: { at: number; key: string; id: string };
  private thisPage = new Set<string>();
  private pageBefore = new Set<string>();

  constructor(private readonly orderedBy?: 'updated_at' | 'created_at') {}

  nextPage(): void {
    this.pageBefore = this.thisPage;
    this.thisPage = new Set();
  }

  check(item: unknown): void {
    const id = idOf(item);
    if (id === undefined) return;
    if (this.thisPage.has(id) || this.pageBefore.has(id)) throw repeated(id);
    this.thisPage.add(id);
    const key = this.orderedBy && keyOf(item, this.orderedBy);
    if (key === undefined) return;
    const at = Date.parse(key);
    if (Number.isNaN(at)) return;
    const before = this.before;
    if (before && !(at < before.at || (at === before.at && id < before.id)))
      throw repeated(id, this.orderedBy);
    this.before = { at, key, id };
  }
}

function repeated(id: string, orderedBy?: string): ProtocolError {
  return new ProtocolError(
    orderedBy
      ? `the service returned item ${id} out of the list's order (not after the item before it by ${orderedBy}, then id, newest first), as an item already seen in this crawl would be; stopped so as not to print it twice or loop`
      : `the service returned item ${id}, already seen in this crawl; stopped so as not to print it twice or loop`,
  );
}

function keyOf(item: unknown, field: string): string | undefined {
  const key =
    item !== null && typeof item === 'object' ? (item as Record<string, unknown>)[field] : undefined;
  return typeof key === 'string' ? key : undefined;
}

/** The item's `id` when it has one (every resource of the service does; `svc api` lists may not). */
function idOf(item: unknown): string | undefined {
  const id = item !== null && typeof item === 'object' ? (item as { id?: unknown }).id : undefined;
  return typeof id === 'string' || typeof id === 'number' ? String(id) : undefined;
}
