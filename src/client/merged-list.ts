/**
 * One list made of several crawls of the same list under different values of a filter the
 * service takes one value of (`status=error` and `status=delisted`): merged in the list's own
 * order, each item once, `limit` counting the merged list.
 */
import type { PagedList } from './paginate.js';

/** How two items of a list compare in its order: negative when `a` comes first. */
export type ListOrder<T> = (a: T, b: T) => number;

/** The order of most lists: `updated_at` descending, then `id` descending. */
export const byUpdatedAt: ListOrder<{ id: string; updated_at?: string | null }> = (a, b) =>
  descending(a.updated_at ?? '', b.updated_at ?? '') || descending(a.id, b.id);

/** The order of operations and events: `created_at` descending, then `id` descending. */
export const byCreatedAt: ListOrder<{ id: string; created_at?: string | null }> = (a, b) =>
  descending(a.created_at ?? '', b.created_at ?? '') || descending(a.id, b.id);

function descending(a: string, b: string): number {
  return a < b ? 1 : a > b ? -1 : 0;
}

/**
 * The crawls merged: each is asked for at most `limit` items (any one of them may hold all the
 * merged list's first `limit`), and is read only as far as the merge needs. After a crawl,
 * `hasMore` says whether the service holds more than the limit let through: an item of some
 * crawl left unread, or a crawl that stopped at its own limit.
 */
export class MergedList<T extends { id: string }> implements AsyncIterable<T> {
  /** Undefined until a crawl ended by itself. */
  hasMore?: boolean;

  constructor(
    private readonly lists: readonly PagedList<T>[],
    private readonly order: ListOrder<T>,
    private readonly limit: number | 'all',
  ) {}

  async *[Symbol.asyncIterator](): AsyncGenerator<T> {
    const crawls = this.lists.map((list) => ({
      list,
      items: list[Symbol.asyncIterator](),
      head: undefined as T | undefined,
      done: false,
    }));
    const seen = new Set<string>();
    let left = this.limit === 'all' ? Number.POSITIVE_INFINITY : this.limit;
    // The next item of a crawl not yet seen through another: an item that changed status while
    // the crawls ran comes in both, and is the merged list's once, where it came first.
    const fill = async (crawl: (typeof crawls)[number]) => {
      while (!crawl.done && crawl.head === undefined) {
        const next = await crawl.items.next();
        if (next.done) crawl.done = true;
        else if (!seen.has(next.value.id)) crawl.head = next.value;
      }
    };
    try {
      while (left > 0) {
        for (const crawl of crawls) await fill(crawl);
        let first: (typeof crawls)[number] | undefined;
        for (const crawl of crawls) {
          if (crawl.head === undefined) continue;
          if (!first || this.order(crawl.head, first.head as T) < 0) first = crawl;
        }
        if (!first) break;
        const item = first.head as T;
        first.head = undefined;
        // Read ahead before the same item came first through another crawl.
        if (seen.has(item.id)) continue;
        seen.add(item.id);
        left -= 1;
        yield item;
      }
      if (left > 0) {
        this.hasMore = false;
        return;
      }
      // At the limit: more is left when a crawl holds an unread item (looked for only when none is
      // at hand: it may cost a page), or stopped at its own limit.
      if (!crawls.some((crawl) => crawl.head !== undefined)) for (const crawl of crawls) await fill(crawl);
      this.hasMore = crawls.some((crawl) => crawl.head !== undefined || crawl.list.hasMore === true);
    } finally {
      await Promise.all(crawls.map((crawl) => (crawl.done ? undefined : crawl.items.return?.())));
    }
  }
}
