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
  // A server that hands back a cursor it gave before, or pages emptily without end, would loop forever.
  const seen = new Set<string>();
  // One that hands out fresh cursors over the same items would too, printing them again and again.
  const seenIds = new Set<string>();
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
      !seen.has(ahead) &&
      items.length > 0
    ) {
      coming = fetchPage(ahead, Math.min(pageSize, after));
      // Awaited on the next turn; a crawl stopped before then leaves it unread.
      coming.catch(() => {});
    }
    for (const [index, raw] of items.entries()) {
      const item = page.read ? page.read(raw, index) : raw;
      // An item beyond the limit: the list goes on.
      if (left <= 0) return options.onEnd?.(true);
      const id = idOf(item);
      if (id !== undefined) {
        if (seenIds.has(id)) {
          throw new ProtocolError(
            `the service returned item ${id}, already seen in this crawl; stopped so as not to print it twice or loop`,
          );
        }
        seenIds.add(id);
      }
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
    if (seen.has(next) || next === cursor) {
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
    seen.add(next);
    cursor = next;
  }
  // The limit was reached at the end of a page that says more follows.
  options.onEnd?.(true);
}

/** The item's `id` when it has one (every resource of the service does; `svc api` lists may not). */
function idOf(item: unknown): string | undefined {
  const id = item !== null && typeof item === 'object' ? (item as { id?: unknown }).id : undefined;
  return typeof id === 'string' || typeof id === 'number' ? String(id) : undefined;
}
