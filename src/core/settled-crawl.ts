/**
 * A crawl of a list kept in `updated_at` descending order (docs/service-contract.md, Lists)
 * that yields every item exactly once, even while other clients change items during it.
 *
 * Keyset paging lets an item updated during the crawl jump ahead of the cursor and be missed.
 * Whatever was missed was updated after the crawl's first page was read, so it sits at the
 * head of the list: closing passes re-read the head until `updated_at` is older than the
 * previous pass's start. A pass answered by a single page is atomic, so the crawl ends when a
 * closing pass needs only one page. `orders list --since-last` and every inventory read
 * (`export`, `diff`, `push --changed-only`, `--backup`) stand on it.
 *
 * This is the one place a list is read twice and repeats are expected: each pass is a crawl of
 * its own, inside which the pager refuses an item seen twice (a broken pager, never the list),
 * while across passes the closing ones re-read items the crawl has yielded, which it drops.
 *
 * What the crawl remembers does not grow in memory with the list: the main crawl's ids go to a
 * record on disk (config/id-record.ts), and a closing pass, which reads only what changed since
 * the crawl began, gathers its items and looks them up there in one read before it yields them.
 * An item the main crawl yielded and that changed after it was read comes back in a closing pass
 * under its new time, so a window of recent ids could not tell it; the record can.
 */
import type { PageInfo } from '../client/client.js';
import { IdRecord } from '../config/id-record.js';
import { ProtocolError } from '../errors.js';

/** One pass over the list from its head; `onPage` hears of each page before its items. */
export type ListPass<T> = (onPage: (page: PageInfo) => void) => AsyncIterable<T>;

/** How the crawl knows its items. */
export interface SettledCrawlOptions<T> {
  /** The item's id: what tells an item an earlier pass yielded. */
  idOf: (item: T) => string;
  /** When the item last changed, in ms (its `updated_at`). */
  changedMs: (item: T) => number;
  /** The list's name in the error of a list that never settles: "order list". */
  what: string;
  /** What the caller did not do because the list never settled: "the mark was not moved". */
  consequence?: string;
  /** Closing passes before giving up on a list that never settles; default 10. */
  maxClosingPasses?: number;
}

/**
 * The Date header has one-second resolution and is stamped when the answer leaves, a moment
 * after the query ran: a pass's start is taken this much earlier, so nothing falls between.
 */
export const SERVER_CLOCK_SLACK_MS = 2_000;
const DEFAULT_MAX_CLOSING_PASSES = 10;

/** Every item of a list once: the main crawl, then closing passes over the head. */
export class SettledCrawl<T> {
  /** Closing passes run after the main crawl. */
  closingPasses = 0;
  /** Items the main crawl missed (they jumped ahead of its cursor) that a closing pass yielded. */
  caughtByClosingPasses = 0;
  /** When the main crawl started by the service's clock (less the slack), once it ended. */
  mainStartMs: number | undefined;

  constructor(
    private readonly pass: ListPass<T>,
    private readonly options: SettledCrawlOptions<T>,
  ) {}

  /** True while a closing pass (not the main crawl) is being read. */
  get closing(): boolean {
    return this.closingPasses > 0;
  }

  /**
   * A bound below the main crawl's start as far as it is known yet (the first page's Date, or
   * its newest change, less the slack): items created after it are those a mark must name.
   */
  get startBoundMs(): number | undefined {
    return this.main?.startMs();
  }

  private main?: ReturnType<SettledCrawl<T>['startedPass']>;

  /** Every item new to this crawl, in list order, then those closing passes catch. */
  async *items(): AsyncGenerator<T> {
    const { idOf, changedMs } = this.options;
    const yielded = new IdRecord();
    try {
      const main = this.startedPass();
      this.main = main;
      for await (const item of main.iterate()) {
        yielded.add(idOf(item));
        yield item;
      }
      this.mainStartMs = main.startMs();
      let stopBeforeMs = main.changedSinceMs();
      const maxPasses = this.options.maxClosingPasses ?? DEFAULT_MAX_CLOSING_PASSES;
      // Ids a closing pass met: yielded by it, or found among the main crawl's.
      const closingSeen = new Set<string>();
      // No start (an empty list without a Date header): nothing was there to be missed.
      while (stopBeforeMs !== undefined) {
        if (this.closingPasses >= maxPasses) {
          const consequence = this.options.consequence ? `; ${this.options.consequence}` : '';
          throw new ProtocolError(
            `the ${this.options.what} kept changing while it was read (${maxPasses} closing passes)${consequence}; run again when fewer changes are under way`,
          );
        }
        this.closingPasses++;
        const closing = this.startedPass();
        const candidates = new Map<string, T>();
        for await (const item of closing.iterate()) {
          if (changedMs(item) < stopBeforeMs) break;
          const id = idOf(item);
          if (!closingSeen.has(id)) candidates.set(id, item);
          closingSeen.add(id);
        }
        const already = yielded.find(new Set(candidates.keys()));
        for (const [id, item] of candidates) {
          if (already.has(id)) continue;
          this.caughtByClosingPasses++;
          yield item;
        }
        if (closing.pages <= 1) break;
        stopBeforeMs = closing.changedSinceMs() ?? stopBeforeMs;
      }
    } finally {
      yielded.remove();
    }
  }

  /** A pass that remembers how many pages it fetched and when, by the service's clock, it started. */
  private startedPass() {
    const state = {
      pages: 0,
      firstDateMs: undefined as number | undefined,
      firstPageNewestMs: undefined as number | undefined,
    };
    const { pass } = this;
    const { changedMs } = this.options;
    return {
      get pages() {
        return state.pages;
      },
      async *iterate(): AsyncGenerator<T> {
        const onPage = (page: PageInfo) => {
          state.pages++;
          if (state.pages === 1 && page.serverDate) state.firstDateMs = page.serverDate.getTime();
        };
        for await (const item of pass(onPage)) {
          // Without a Date header, the newest change on the first page is the best lower bound of its time.
          if (state.pages === 1)
            state.firstPageNewestMs = Math.max(state.firstPageNewestMs ?? 0, changedMs(item));
          yield item;
        }
      },
      /** When the pass started by the service's clock (Date header, else the first page's newest change), less the slack. */
      startMs(): number | undefined {
        const base = state.firstDateMs ?? state.firstPageNewestMs;
        return base === undefined ? undefined : base - SERVER_CLOCK_SLACK_MS;
      },
      /**
       * A bound below the `updated_at` of every item changed after the first page was read:
       * the later of the start and the first page's newest change (a later change is stamped
       * later still). The later bound keeps closing passes short on a busy store.
       */
      changedSinceMs(): number | undefined {
        const bounds = [this.startMs(), state.firstPageNewestMs].filter((b): b is number => b !== undefined);
        return bounds.length === 0 ? undefined : Math.max(...bounds);
      },
    };
  }
}
