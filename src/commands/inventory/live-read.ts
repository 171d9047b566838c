/** The read of the store's live values that `inventory diff` and `push --changed-only/--backup` make first. */
import type { Deps } from '../../cmdutil/deps.js';
import type { ChangePlan, RowChange } from '../../core/inventory/changes.js';
import type { CheckedFile } from '../../core/inventory/check.js';
import { counted, plural } from '../../words.js';

/** Reads every SKU's live values (paced, no write quota) and compares the checked file with them. */
export async function compareFileWithStore(
  ctx: Pick<Deps, 'io' | 'client' | 'signal'>,
  file: CheckedFile,
  onChange?: (change: RowChange) => void,
): Promise<ChangePlan> {
  const { LiveStockRead } = await import('../../core/inventory/live-stock.js');
  const { compareWithStore } = await import('../../core/inventory/changes.js');
  const { startProgress } = await import('../../output/progress.js');
  const client = await ctx.client();
  ctx.io.messages.info("Reading the store's quantities and prices (reads spend no write quota)…");
  const read = new LiveStockRead(client, ctx.signal);
  const progress = await startProgress(ctx.io, {
    // The file's size is the best guess of the store's before the read.
    total: file.rowCount,
    noun: 'SKUs read',
    enabled: ctx.io.showsProgress,
  });
  let skus = 0;
  const live = new Map<string, { quantity: number | null; price: string | null }>();
  try {
    for await (const { sku, quantity, price } of read.rows()) {
      live.set(sku, { quantity, price });
      if (++skus % 1000 === 0) progress.update(skus);
    }
  } finally {
    progress.stop();
  }
  const caught =
    read.caughtByClosingPasses > 0
      ? `; ${read.caughtByClosingPasses} changed while it was read, caught by ${read.closingPasses} closing ${plural(read.closingPasses, 'pass', 'passes')}`
      : '';
  ctx.io.messages.info(`Read ${counted(live.size, 'SKU')} of ${counted(read.products, 'product')}${caught}.`);
  return compareWithStore(file, live, onChange);
}
