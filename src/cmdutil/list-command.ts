/** What every list command does after building its iterator: print, then say what the list left out. */
import type { ListOrder } from '../client/merged-list.js';
import type { PagedList } from '../client/paginate.js';
import type { View } from '../output/view.js';
import { thousands } from '../words.js';
import type { Deps } from './deps.js';

/** Items to print; a paged list (src/client/paginate.ts) also tells, once crawled, whether the service holds more. */
export type ListItems<T> = AsyncIterable<T> & { readonly hasMore?: boolean };

/**
 * Streams `items` in the chosen format (a crawl to the end, `toTheEnd`, by default with --all,
 * counted while it goes: see withCrawlProgress); says when the limit left more on the service than
 * were printed (on stderr, whatever the format and wherever stdout goes), and on a terminal
 * when none matched.
 */
export async function printList<T>(
  ctx: Pick<Deps, 'io'>,
  items: ListItems<T>,
  view: View<T>,
  noun: string,
  options: { toTheEnd?: boolean } = {},
): Promise<void> {
  const toTheEnd = options.toTheEnd ?? ctx.io.listLimit === 'all';
  const count = await ctx.io.printer.list(toTheEnd ? withCrawlProgress(ctx, items, noun) : items, view);
  noteCutList(ctx, items, count, noun);
  if (count === 0 && ctx.io.format === 'table' && ctx.io.stdoutIsTTY)
    ctx.io.messages.info(`No ${noun} found.`);
}

/**
 * A list cut short by --limit while the service holds more says so on stderr, to a pipe or a
 * file too: a script that writes 25 of 200 orders to a file must not pass for the whole list.
 * A note, so `-q` silences it.
 */
export function noteCutList(
  ctx: Pick<Deps, 'io'>,
  items: ListItems<unknown>,
  count: number,
  noun: string,
): void {
  if (!items.hasMore) return;
  ctx.io.messages.info(
    `Showing the first ${thousands(count)} ${noun}; the service holds more: use --limit N or --all.`,
  );
}

/**
 * The list under `filters` with each combination of the several values a filter was given
 * (`--status a,b --channel x`: status a on x, then status b on x): one crawl per combination,
 * merged in the list's `order`, each item once, `limit` counting the merged list. One
 * combination is the plain list.
 */
export async function listEach<F extends object, T extends { id: string }>(
  filters: F,
  several: { [K in keyof F]?: readonly string[] },
  list: (filters: F) => PagedList<T>,
  order: ListOrder<T>,
  limit: number | 'all',
): Promise<ListItems<T>> {
  let combinations: F[] = [filters];
  for (const [key, values] of Object.entries(several) as Array<[keyof F, readonly string[] | undefined]>) {
    if (values === undefined) continue;
    combinations = combinations.flatMap((combination) =>
      values.map((value) => ({ ...combination, [key]: value })),
    );
  }
  if (combinations.length === 1) return list(combinations[0]);
  const { MergedList } = await import('../client/merged-list.js');
  return new MergedList(combinations.map(list), order, limit);
}

/** Items between two counts on the progress line: a page. */
const COUNT_EVERY = 100;

/**
 * `items`, counted on a line every 30 s while they pass, when neither stream is a terminal, or
 * in CI (a log): a crawl to the end of a long list takes minutes, and the log must not look hung
 * meanwhile (docs/guide.md, Output). On a terminal the rows show the crawl going, or stdout may
 * be a pager (`| less`) that a live line on stderr would draw over.
 */
export function withCrawlProgress<T>(ctx: Pick<Deps, 'io'>, items: ListItems<T>, noun: string): ListItems<T> {
  if (ctx.io.stdoutIsTTY || (ctx.io.stderrIsTTY && !ctx.io.inCI)) return items;
  return {
    get hasMore() {
      return items.hasMore;
    },
    async *[Symbol.asyncIterator]() {
      const { startProgress } = await import('../output/progress.js');
      const progress = await startProgress(ctx.io, { ...ctx.io.progress, total: undefined, noun });
      let count = 0;
      try {
        for await (const item of items) {
          if (++count % COUNT_EVERY === 0) progress.update(count);
          yield item;
        }
      } finally {
        progress.stop();
      }
    },
  };
}

/** An already fetched array as the async iterable printList takes (one-page lists). */
export async function* fromArray<T>(items: readonly T[]): AsyncGenerator<T> {
  yield* items;
}
