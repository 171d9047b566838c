/** The read of the store's live values that `inventory diff` and `push --changed-only/--backup` make first. */
import type { ApiClient } from '../../client/client.js';
import { counted, plural } from '../../words.js';
import type { Notes, Track } from '../notes.js';
import { type ChangePlan, type CompareOptions, compareWithStore, type RowChange } from './changes.js';
import type { CheckedFile } from './check.js';
import { LiveStockRead } from './live-stock.js';
import { SpooledStock } from './spooled-stock.js';

/** What the read tells while it goes, and what stops it. */
export interface LiveReadDeps {
  signal?: AbortSignal;
  notes: Notes;
  track: Track;
}

/** Reads every SKU's live values (paced, no write quota) and compares the checked file with them. */
export async function compareFileWithStore(
  client: ApiClient,
  file: CheckedFile,
  { signal, notes, track }: LiveReadDeps,
  onChange?: (change: RowChange) => void,
  options: CompareOptions = {},
): Promise<ChangePlan> {
  notes.info("Reading the store's quantities and prices (reads spend no write quota)…");
  const read = new LiveStockRead(client, signal);
  // The file's size is the best guess of the store's before the read.
  const progress = await track({ total: file.rowCount, noun: 'SKUs read' });
  let skus = 0;
  // On disk, partitioned by SKU, not a table in memory: a million SKUs next to the crawl's own
  // peak would take a push over 150 MB (./spooled-stock.ts).
  const live = new SpooledStock(file.rowCount);
  try {
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
    notes.info(`Read ${counted(live.size, 'SKU')} of ${counted(read.products, 'product')}${caught}.`);
    return await compareWithStore(file, await live.inFileOrder(file), onChange, options);
  } finally {
    live.remove();
  }
}
