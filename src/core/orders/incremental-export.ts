/**
 * `orders list --since-last NAME`: every order created since the last export, each exactly
 * once (the closing passes of SettledCrawl), with the next mark taken from the service's clock.
 *
 * `created_after` is inclusive, so the mark keeps the ids already exported at or after it,
 * and the next export skips those.
 */
import type { PageInfo } from '../../client/client.js';
import type { Order } from '../../contract/schemas/order.js';
import { SettledCrawl } from '../settled-crawl.js';

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

/** The ids and instants an export learned, and the next mark once it finished. */
export class IncrementalExport {
  /** Orders yielded (printed). */
  exported = 0;
  /** Orders seen again at the boundary of the previous mark and skipped. */
  skippedAtBoundary = 0;
  /** Orders the main crawl missed (they jumped ahead of its cursor) that a closing pass exported. */
  caughtByClosingPasses = 0;
  /** When each order created since the crawl began was created: the next mark's boundary. */
  private readonly recent = new Map<string, number>();
  private readonly previousBoundary: ReadonlySet<string>;
  private readonly createdAfter: string | undefined;
  private readonly crawl: SettledCrawl<Order>;
  private finished = false;

  constructor(
    pass: OrderPass,
    private readonly options: IncrementalExportOptions = {},
  ) {
    this.createdAfter = options.mark?.createdAfter ?? options.initialCreatedAfter;
    this.previousBoundary = new Set(options.mark?.boundaryIds ?? []);
    const createdAfter = this.createdAfter;
    this.crawl = new SettledCrawl((onPage) => pass(createdAfter, onPage), {
      idOf: (order) => order.id,
      changedMs: updatedMs,
      what: 'order list',
      consequence: 'the mark was not moved',
      maxClosingPasses: options.maxClosingPasses,
    });
  }

  /** The `created_after` this export asks for. */
  get since(): string | undefined {
    return this.createdAfter;
  }

  /** Closing passes run after the main crawl. */
  get closingPasses(): number {
    return this.crawl.closingPasses;
  }

  /** Every order to export, each once: the main crawl, then closing passes over the head. */
  async *orders(): AsyncGenerator<Order> {
    for await (const order of this.crawl.items()) {
      // Only orders created at or after the mark (the crawl's start, or an earlier mark that
      // stays) can be on its boundary; the bound is known from the first page on, and never
      // above the mark, so nothing older is kept.
      const createdMs = Date.parse(order.created_at);
      const from = this.crawl.startBoundMs;
      if (from === undefined || createdMs >= from) this.recent.set(order.id, createdMs);
      if (this.previousBoundary.has(order.id)) {
        this.skippedAtBoundary++;
        continue;
      }
      this.exported++;
      if (this.crawl.closing) this.caughtByClosingPasses++;
      yield order;
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
    let markMs = this.crawl.mainStartMs;
    if (markMs === undefined) return previous ? { ...previous } : undefined;
    const previousMs = previous ? Date.parse(previous.createdAfter) : Number.NaN;
    // A mark never moves back: a service clock that stepped back must not export orders twice.
    const keepPrevious = !Number.isNaN(previousMs) && markMs <= previousMs;
    if (keepPrevious) markMs = previousMs;
    const boundary = new Set<string>(keepPrevious ? previous?.boundaryIds : []);
    for (const [id, createdMs] of this.recent) if (createdMs >= markMs) boundary.add(id);
    return {
      createdAfter: keepPrevious && previous ? previous.createdAfter : new Date(markMs).toISOString(),
      boundaryIds: [...boundary].sort(),
    };
  }
}

/** When an order last changed; `updated_at` is additive, so `created_at` stands in without it. */
function updatedMs(order: Order): number {
  const updated = order.updated_at ? Date.parse(order.updated_at) : Number.NaN;
  return Number.isNaN(updated) ? Date.parse(order.created_at) : updated;
}
