/** What every list command does after building its iterator: print, then hint on a terminal. */
import type { View } from '../output/view.js';
import type { Context } from './context.js';

/** Streams `items` in the chosen format; on a terminal, says when more items exist or none matched. */
export async function printList<T>(
  ctx: Context,
  items: AsyncIterable<T>,
  view: View<T>,
  noun: string,
): Promise<void> {
  const count = await ctx.printer.list(items, view);
  if (ctx.format !== 'table' || !ctx.io.stdoutIsTTY) return;
  const limit = ctx.listLimit;
  if (count === 0) ctx.messages.info(`No ${noun} found.`);
  else if (limit !== 'all' && count >= limit) {
    ctx.messages.info(`Showing the first ${count} ${noun}; use --limit N or --all for more.`);
  }
}

/** An already fetched array as the async iterable printList takes (one-page lists). */
export async function* fromArray<T>(items: readonly T[]): AsyncGenerator<T> {
  yield* items;
}
