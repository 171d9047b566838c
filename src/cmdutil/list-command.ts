/** What every list command does after building its iterator: print, then hint on a terminal. */
import type { View } from '../output/view.js';
import type { Deps } from './deps.js';

/** Items to print; a paged list (api/paginate.ts) also tells, once crawled, whether the service holds more. */
export type ListItems<T> = AsyncIterable<T> & { readonly hasMore?: boolean };

/**
 * Streams `items` in the chosen format; on a terminal, says when none matched, or when the
 * limit left more on the service than were shown.
 */
export async function printList<T>(
  ctx: Pick<Deps, 'io'>,
  items: ListItems<T>,
  view: View<T>,
  noun: string,
): Promise<void> {
  const count = await ctx.io.printer.list(items, view);
  if (ctx.io.format !== 'table' || !ctx.io.stdoutIsTTY) return;
  if (count === 0) ctx.io.messages.info(`No ${noun} found.`);
  else if (items.hasMore)
    ctx.io.messages.info(`Showing the first ${count} ${noun}; use --limit N or --all for more.`);
}

/** An already fetched array as the async iterable printList takes (one-page lists). */
export async function* fromArray<T>(items: readonly T[]): AsyncGenerator<T> {
  yield* items;
}
