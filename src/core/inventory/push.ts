/** The push itself: batches of checked rows to POST /inventory/batch, outcomes per SKU. */
import type { InventoryBatchResult } from '../../api/schemas/inventory.js';
import { type ItemOutcome, runChunks } from '../bulk.js';
import { type CheckedFile, inventoryBatches } from './check.js';
import type { InventoryRow } from './csv-rows.js';

/** One confirmed batch: its place in the file, its rows' outcomes and its operation. */
export interface BatchDone {
  index: number;
  outcomes: ItemOutcome[];
  operationId?: string | null;
}

/** What the push needs from outside: how to send, and where outcomes go. */
export interface PushInventoryOptions {
  batchSize: number;
  concurrency: number;
  /** Test keys: the service simulated every write. */
  simulated: boolean;
  send: (rows: InventoryRow[]) => Promise<InventoryBatchResult>;
  onBatch: (done: BatchDone) => void;
  /** True for a batch an earlier run confirmed (resume). */
  isConfirmed?: (index: number) => boolean;
  signal?: AbortSignal;
  graceMs?: number;
}

/** Sends every batch not yet confirmed; stops on quota or signal (RunStopped) after in-flight ones land. */
export async function pushInventory(file: CheckedFile, options: PushInventoryOptions): Promise<void> {
  await runChunks(
    inventoryBatches(file, options.batchSize),
    async (rows, index) => {
      const result = await options.send(rows);
      options.onBatch({
        index,
        outcomes: batchOutcomes(rows, result, options.simulated),
        operationId: result.operation_id,
      });
    },
    {
      concurrency: options.concurrency,
      signal: options.signal,
      skip: (index) => options.isConfirmed?.(index) ?? false,
      graceMs: options.graceMs,
    },
  );
}

/** Pairs each sent row with the service's result for its SKU. */
export function batchOutcomes(
  rows: InventoryRow[],
  result: InventoryBatchResult,
  simulated: boolean,
): ItemOutcome[] {
  const bySku = new Map(result.data.map((item) => [item.sku, item]));
  return rows.map((row) => {
    const item = bySku.get(row.sku);
    if (!item) {
      return {
        line: row.line,
        key: row.sku,
        status: 'failed',
        code: 'missing_result',
        message: 'the service sent no result for this SKU',
      };
    }
    const status = simulated && item.status !== 'failed' ? 'simulated' : item.status;
    return { line: row.line, key: row.sku, status, code: item.error?.code, message: item.error?.message };
  });
}
