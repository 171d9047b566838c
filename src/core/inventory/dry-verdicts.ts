/**
 * What a push would record for each row of a checked file, from a read of the store's live
 * values (reads only): a row that changes its SKU is sent, one that changes nothing is
 * unchanged (a skip), one whose SKU the store lacks fails as the service fails it.
 */
import type { ApiClient } from '../../client/client.js';
import { ERROR_CODES } from '../../contract/contract.js';
import { compareRow } from './changes.js';
import { type CheckedFile, inventoryBatches } from './check.js';
import { type LiveIndex, LiveStockRead } from './live-stock.js';
import { StockTable } from './stock-table.js';

/** One row's verdict, as a dry run's report writes it. */
export interface PushVerdict {
  line: number;
  key: string;
  status: 'would_send' | 'would_skip' | 'would_fail';
  code?: string;
  message?: string;
}

/** The store's SKUs and their live values, read once (paced, no write quota). */
export async function storeStock(client: ApiClient, signal?: AbortSignal): Promise<LiveIndex> {
  const live = new StockTable();
  for await (const { sku, quantity, price } of new LiveStockRead(client, signal).rows())
    live.set(sku, { quantity, price });
  return live;
}

/** Every row of the file in order, with what the live push would record for it. */
export async function* pushVerdicts(file: CheckedFile, live: LiveIndex): AsyncGenerator<PushVerdict> {
  for await (const rows of inventoryBatches(file, 1000))
    for (const row of rows) {
      const { line, sku: key } = row;
      const change = compareRow(row, live.get(key));
      if (!change)
        yield { line, key, status: 'would_skip', message: 'unchanged: the store has these values already' };
      else if (change.status === 'not_in_store')
        yield {
          line,
          key,
          status: 'would_fail',
          code: ERROR_CODES.skuNotFound,
          message: `no variant in the store has the SKU ${JSON.stringify(key)}`,
        };
      else yield { line, key, status: 'would_send' };
    }
}
