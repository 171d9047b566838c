/** What every list command does after building its iterator: print, then say what the list left out. */
import type { View } from '../output/view.js';
import { thousands } from '../words.js';
import type { Deps } from './deps.js';

/** Items to print; a paged list (src/client/paginate.ts) also tells, once crawled, whether the service holds more. */
export type ListItems<T> = AsyncIterable<T> & { readonly hasMore?: boolean };

/**
 * Streams `items` in the chosen format; says when the limit left more on the service than
 * were printed (on stderr, whatever the format and wherever stdout goes), and on a terminal
 * when none matched.
 */
export async function printList<T>(
  ctx: Pick<Deps, 'io'>,
  items: ListItems<T>,
  view: View<T>,
  noun: string,
): Promise<void> {
  const count = await ctx.io.printer.list(items, view);
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

/** An already fetched array as the async iterable printList takes (one-page lists). */
export async function* fromArray<T>(items: readonly T[]): AsyncGenerator<T> {
  yield* items;
}
