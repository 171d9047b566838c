/** `inventory push --wait`: follow the batches' operations and name channel failures per SKU. */
import type { ApiClient } from '../../api/client.js';
import type { OperationResult } from '../../api/schemas/operation.js';
import { type WaitResult, waitForOperations } from '../operations/wait.js';

/** How the channels took the push. */
export interface ChannelVerdict {
  wait: WaitResult;
  /** One entry per failed channel result: which SKU, where, and why. */
  failures: Array<Pick<OperationResult, 'sku' | 'channel_account_id' | 'listing_id' | 'error'>>;
}

/** Waits for every operation id (created at or after `createdAfter`) and collects failed results. */
export async function followPushOperations(
  client: ApiClient,
  operationIds: readonly string[],
  options: {
    timeoutMs: number;
    createdAfter: string;
    signal?: AbortSignal;
    onProgress?: (done: number, total: number) => void;
  },
): Promise<ChannelVerdict> {
  const wait = await waitForOperations(client, operationIds, {
    timeoutMs: options.timeoutMs,
    createdAfter: options.createdAfter,
    signal: options.signal,
    onProgress: ({ done, total }) => options.onProgress?.(done, total),
  });
  const failures = wait.operations.flatMap((operation) =>
    (operation.results ?? [])
      .filter((result) => result.status === 'failed')
      .map(({ sku, channel_account_id, listing_id, error }) => ({
        sku,
        channel_account_id,
        listing_id,
        error,
      })),
  );
  return { wait, failures };
}
