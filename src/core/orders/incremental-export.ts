/**
 * `orders list --since-last NAME`: every order created since the last export, each exactly
 * once, with the next mark taken from the service's clock.
 *
 * Orders list by `updated_at` descending, and keyset paging lets an order updated during the
 * crawl jump ahead of the cursor and be missed. Whatever was missed was updated after the
 * crawl's first page was read, so it sits at the head of the list: closing passes re-read the
 * head until `updated_at` is older than the previous pass's start. A pass answered by a single
 * page is atomic, so the export ends when a closing pass needs only one page.
 *
 * `created_after` is inclusive, so the mark keeps the ids already exported at or after it,
 * and the next export skips those.
 */
import type { PageInfo } from '../../api/client.js';
import type { Order } from '../../api/schemas/order.js';
import { ProtocolError } from '../../errors.js';

/** One pass over the order list from its head with the export's filters; `onPage` hears of each page first. */
export type OrderPass = (
  createdAfter: string | undefined,
  onPage: (page: PageInfo) => void,
) => AsyncIterable<Order>;

/** Where the previous export ended. */
export interface ExportStart {
  createdAfter: string;
  boundaryIds: readonly string[];
}

/** How an export runs. */
export interface IncrementalExportOptions {
  /** The previous export's mark; absent on the first run. */
  mark?: ExportStart;
  /** `created_after` of a first run (no mark yet); every order when absent. */
  initialCreatedAfter?: string;
  /** Closing passes before giving up on a list that never settles; default 10. */
  maxClosingPasses?: number;
}

/**
 * The Date header has one-second resolution and is stamped when the answer leaves, a moment
 * after the query ran: the crawl's start is taken this much earlier, so nothing falls between.
 */
export const SERVER_CLOCK_SLACK_MS = 2_000;
const DEFAULT_MAX_CLOSING_PASSES = 10;

/** The ids and instants an export learned, and the next mark once it finished. */
export class IncrementalExport {
  /** Orders yielded (printed). */
  exported = 0;
  /** Orders seen again at the boundary of the previous mark and skipped. */
  skippedAtBoundary = 0;
  /** Closing passes run after the main crawl. */
  closingPasses = 0;
  /** Orders the main crawl missed (they jumped ahead of its cursor) that a closing pass exported. */
  caughtByClosingPasses = 0;
  private readonly seen = new Map<string, number>();
  private readonly previousBoundary: ReadonlySet<string>;
  private readonly createdAfter: string | undefined;
  private crawlStartMs: number | undefined;
  private finished = false;

  constructor(
    private readonly pass: OrderPass,
    private readonly options: IncrementalExportOptions = {},
  ) {
    this.createdAfter = options.mark?.createdAfter ?? options.initialCreatedAfter;
    this.previousBoundary = new Set(options.mark?.boundaryIds ?? []);
  }

  /** The `created_after` this export asks for. */
  get since(): string | undefined {
    return this.createdAfter;
  }

  /** Every order to export, each once: the main crawl, then closing passes over the head. */
  async *orders(): AsyncGenerator<Order> {
    const main = this.startedPass();
    for await (const order of main.iterate()) {
      if (this.take(order)) yield order;
    }
    this.crawlStartMs = main.startMs();
    let stopBeforeMs = main.changedSinceMs();
    const maxPasses = this.options.maxClosingPasses ?? DEFAULT_MAX_CLOSING_PASSES;
    // No start (an empty list without a Date header): nothing was there to be missed.
    while (stopBeforeMs !== undefined) {
      if (this.closingPasses >= maxPasses) {
        throw new ProtocolError(
          `the order list kept changing while it was exported (${maxPasses} closing passes); the mark was not moved, run the export again`,
        );
      }
      this.closingPasses++;
      const closing = this.startedPass();
      for await (const order of closing.iterate()) {
        if (updatedMs(order) < stopBeforeMs) break;
        if (this.take(order)) {
          this.caughtByClosingPasses++;
          yield order;
        }
      }
      if (closing.pages <= 1) break;
      stopBeforeMs = closing.changedSinceMs() ?? stopBeforeMs;
    }
    this.finished = true;
  }

  /**
   * The mark to save, once `orders()` ran to its end; undefined when nothing tells where the
   * export ended (then the previous mark stays).
   */
  nextMark(): ExportStart | undefined {
    if (!this.finished) throw new Error('nextMark() before the export finished');
    const previous = this.options.mark;
    let markMs = this.crawlStartMs;
    if (markMs === undefined) return previous ? { ...previous } : undefined;
    const previousMs = previous ? Date.parse(previous.createdAfter) : Number.NaN;
    // A mark never moves back: a service clock that stepped back must not export orders twice.
    const keepPrevious = !Number.isNaN(previousMs) && markMs <= previousMs;
    if (keepPrevious) markMs = previousMs;
    const boundary = new Set<string>(keepPrevious ? previous?.boundaryIds : []);
    for (const [id, createdMs] of this.seen) if (createdMs >= markMs) boundary.add(id);
    return {
      createdAfter: keepPrevious && previous ? previous.createdAfter : new Date(markMs).toISOString(),
      boundaryIds: [...boundary].sort(),
    };
  }

  /** True when `order` is to be printed: not yet seen in this run, not exported by the previous one. */
  private take(order: Order): boolean {
    if (this.seen.has(order.id)) return false;
    this.seen.set(order.id, Date.parse(order.created_at));
    if (this.previousBoundary.has(order.id)) {
      this.skippedAtBoundary++;
      return false;
    }
    this.exported++;
    return true;
  }

  /** A pass that remembers how many pages it fetched and when, by the service's clock, it started. */
  private startedPass() {
    const state = {
      pages: 0,
      firstDateMs: undefined as number | undefined,
      firstPageNewestMs: undefined as number | undefined,
    };
    const pass = this.pass;
    const createdAfter = this.createdAfter;
    return {
      get pages() {
        return state.pages;
      },
      async *iterate(): AsyncGenerator<Order> {
        const onPage = (page: PageInfo) => {
          state.pages++;
          if (state.pages === 1 && page.serverDate) state.firstDateMs = page.serverDate.getTime();
        };
        for await (const order of pass(createdAfter, onPage)) {
          // Without a Date header, the newest change on the first page is the best lower bound of its time.
          if (state.pages === 1)
            state.firstPageNewestMs = Math.max(state.firstPageNewestMs ?? 0, updatedMs(order));
          yield order;
        }
      },
      /** When the pass started by the service's clock (Date header, else the first page's newest change), less the slack. */
      startMs(): number | undefined {
        const base = state.firstDateMs ?? state.firstPageNewestMs;
        return base === undefined ? undefined : base - SERVER_CLOCK_SLACK_MS;
      },
      /**
       * A bound below the `updated_at` of every order changed after the first page was read:
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

/** When an order last changed; `updated_at` is additive, so `created_at` stands in without it. */
function updatedMs(order: Order): number {
  const updated = order.updated_at ? Date.parse(order.updated_at) : Number.NaN;
  return Number.isNaN(updated) ? Date.parse(order.created_at) : updated;
}
