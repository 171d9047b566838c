/**
 * The push on the wire: batches of checked rows to POST /inventory/batch, an outcome per SKU,
 * each batch the service confirmed journaled, so that a resume sends only the others.
 */
import type { ApiClient } from '../../client/client.js';
import { pushInventoryBatch } from '../../client/resources/inventory.js';
import type { InventoryBatchResult } from '../../contract/schemas/inventory.js';
import { type BulkRunOptions, batchOutcomes, sendChunks } from '../bulk.js';
import type { ItemOutcome } from '../outcomes.js';
import type { CheckedFile, PlacedRow } from './check.js';
import { CONFIRMED_NOTE, type PushSelection, selectedBatches } from './selection.js';

/** Where a push's outcomes go (the bulk frame's record). */
export interface PushLedger {
  /** Counts one request sent (retries are the transport's business). */
  countRequest(): void;
  /**
   * Every row's outcome as it is known: sent and answered, left out by the selection, confirmed
   * by an earlier run (skipped), or not sent because the run stopped.
   */
  record(outcomes: readonly ItemOutcome[]): void;
}

/** The batches confirmed so far: those of an earlier run are skipped, each new one is recorded. */
interface BatchJournal {
  isConfirmed(index: number): boolean;
  confirm(index: number, now: Date): void;
}

/** How the batches are sent. */
export interface PushBatchesOptions extends BulkRunOptions {
  batchSize: number;
  /** --changed-only: the rows to send; the others are settled without a request. Absent: every row. */
  selection?: PushSelection;
  journal: BatchJournal;
  ledger: PushLedger;
  now: () => number;
  /** The operation a confirmed batch started on the channels (followed with --wait). */
  onOperation?: (id: string) => void;
}

/** Sends every batch not yet confirmed; stops on quota or signal (RunStopped) after in-flight ones land. */
export async function pushBatches(
  client: ApiClient,
  file: CheckedFile,
  options: PushBatchesOptions,
): Promise<void> {
  const { batchSize, selection, journal, ledger, now, onOperation, ...run } = options;
  // Test keys: the service simulated every write.
  const simulated = !client.live;
  const settle = (outcomes: ItemOutcome[]) => ledger.record(outcomes);
  await sendChunks(selectedBatches(file, batchSize, selection, settle), {
    ...run,
    simulated,
    keyOf: (row) => row.sku,
    // A resumed run still accounts for these rows: the summary and the report name every row.
    skip: (index, rows) => {
      if (!journal.isConfirmed(index)) return false;
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
      ledger.countRequest();
      const result = await pushInventoryBatch(client, rows);
      return { outcomes: rowOutcomes(rows, result, simulated), operationId: result.operation_id };
    },
    settle,
    onChunk: ({ index, operationId }) => {
      journal.confirm(index, new Date(now()));
      if (operationId) onOperation?.(operationId);
    },
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
