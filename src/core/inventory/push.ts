/** The push itself: batches of checked rows to POST /inventory/batch, outcomes per SKU. */
import type { InventoryBatchResult } from '../../contract/schemas/inventory.js';
import { type BulkRunOptions, batchOutcomes, type ChunkDone, sendChunks } from '../bulk.js';
import type { ItemOutcome } from '../outcomes.js';
import type { CheckedFile, PlacedRow } from './check.js';
import { type PushSelection, selectedBatches } from './selection.js';

/** What the push needs from outside: how to send, and where outcomes go. */
export interface PushInventoryOptions extends BulkRunOptions {
  batchSize: number;
  /** Test keys: the service simulated every write. */
  simulated: boolean;
  send: (rows: PlacedRow[]) => Promise<InventoryBatchResult>;
  /**
   * Every row's outcome as it is known: sent and answered, left out by the selection, confirmed
   * by an earlier run (skipped), or not sent because the run stopped.
   */
  settle: (outcomes: ItemOutcome[]) => void;
  /** A batch the service confirmed: its place in the file, its rows' outcomes and its operation. */
  onBatch: (done: ChunkDone) => void;
  /** True for a batch an earlier run confirmed (resume). */
  isConfirmed?: (index: number) => boolean;
  /** --changed-only: the rows to send; the others are settled without a request. Absent: every row. */
  selection?: PushSelection;
}

/** The outcome of a row whose batch the interrupted run already confirmed. */
const CONFIRMED_NOTE = 'confirmed by the interrupted push; not sent again';

/** Sends every batch not yet confirmed; stops on quota or signal (RunStopped) after in-flight ones land. */
export async function pushInventory(file: CheckedFile, options: PushInventoryOptions): Promise<void> {
  const { batchSize, simulated, send, settle, onBatch, isConfirmed, selection, ...run } = options;
  await sendChunks(selectedBatches(file, batchSize, selection, settle), {
    ...run,
    simulated,
    keyOf: (row) => row.sku,
    // A resumed run still accounts for these rows: the summary and the report name every row.
    skip: (index, rows) => {
      if (!isConfirmed?.(index)) return false;
      settle(
        rows.map((row) => ({
          index: row.index,
          line: row.line,
          key: row.sku,
          status: 'skipped',
          message: CONFIRMED_NOTE,
          unsent: true,
        })),
      );
      return true;
    },
    // Setting inventory is absolute, so the transport repeats it; a batch refused as a whole
    // stops the run rather than being journaled as confirmed, so that --resume sends it again.
    refusalStops: true,
    send: async (rows) => {
      const result = await send(rows);
      return { outcomes: rowOutcomes(rows, result, simulated), operationId: result.operation_id };
    },
    settle,
    onChunk: onBatch,
  });
}

/** Pairs each sent row with the service's result for its SKU. */
function rowOutcomes(
  rows: readonly PlacedRow[],
  result: InventoryBatchResult,
  simulated: boolean,
): ItemOutcome[] {
  const bySku = new Map(result.data.map((item) => [item.sku, item]));
  return batchOutcomes(rows, (row) => bySku.get(row.sku), {
    simulated,
    noun: 'SKU',
    keyOf: (row) => row.sku,
  });
}
