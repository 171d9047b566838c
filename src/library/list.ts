/**
 * A list of the service as a library hands it out: an async iterable that crawls every page
 * through the shared pager (the same refusal of a broken page, the same pacing), with
 * `first(n)`, `all()` and `pages()` on the same object. Nothing is sent until it is read.
 */
import type { PagedList } from '../client/paginate.js';
import type { PageInfo } from '../client/types.js';

/** Opens one crawl of at most `limit` items (undefined: every item), hearing of each page. */
export type OpenCrawl<T> = (
  limit: number | undefined,
  onPage?: (page: PageInfo) => void,
) => Promise<PagedList<T>>;

/** The items of a list of the service, crawled lazily page by page. */
export class List<T> implements AsyncIterable<T> {
  /** @internal */
  constructor(private readonly open: OpenCrawl<T>) {}

  [Symbol.asyncIterator](): AsyncIterator<T> {
    // The crawl's own iterator once open, not a generator around it: no second await per item.
    let opened: Promise<AsyncIterator<T>> | undefined;
    const crawl = () => {
      opened ??= this.open(undefined).then((list) => list[Symbol.asyncIterator]());
      return opened;
    };
    let inner: AsyncIterator<T> | undefined;
    return {
      next: () =>
        inner?.next() ??
        crawl().then((iterator) => {
          inner = iterator;
          return iterator.next();
        }),
      return: async (value?: unknown) => {
        const iterator = inner ?? (opened && (await opened));
        await iterator?.return?.(value);
        return { done: true, value: undefined };
      },
    };
  }

  /** The first `n` items (pages ask for no more than are wanted). */
  async first(n: number): Promise<T[]> {
    if (!Number.isInteger(n) || n < 0) throw new RangeError(`first(n) takes a whole number, got ${n}`);
    const items: T[] = [];
    if (n === 0) return items;
    for await (const item of await this.open(n)) items.push(item);
    return items;
  }

  /** Every item, in one array (a long list is better read with `for await`). */
  async all(): Promise<T[]> {
    const items: T[] = [];
    for await (const item of this) items.push(item);
    return items;
  }

  /** The items page by page, as the service sent them (an empty page is skipped). */
  async *pages(): AsyncGenerator<T[]> {
    const sizes: number[] = [];
    let page: T[] = [];
    for await (const item of await this.open(undefined, ({ count }) => sizes.push(count))) {
      page.push(item);
      while (sizes.length > 0 && sizes[0] === 0) sizes.shift();
      if (page.length === sizes[0]) {
        sizes.shift();
        yield page;
        page = [];
      }
    }
    if (page.length > 0) yield page;
  }
}
