/** `inventory push --wait`: follow the batches' operations and name channel failures per SKU. */
import type { ApiClient } from '../../api/client.js';
import type { OperationResult } from '../../api/schemas/operation.js';
import type { ItemOutcome } from '../bulk.js';
import { type WaitResult, waitForOperations } from '../operations/wait.js';
import { type CheckedFile, inventoryBatches } from './check.js';

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

/** One channel refusal as a report row: the SKU's line in the file, the channel's code and words. */
export type ChannelRefusal = ItemOutcome & { channel_account_id: string | null; listing_id: string | null };

/**
 * Every channel refusal as a row of the report (status `failed`), with the line of its SKU in
 * the file; the file is read again for those lines rather than holding a map of every SKU.
 */
export async function channelRefusals(
  file: CheckedFile,
  failures: ChannelVerdict['failures'],
): Promise<ChannelRefusal[]> {
  const wanted = new Set(failures.map((failure) => failure.sku).filter((sku): sku is string => Boolean(sku)));
  const lines = new Map<string, number>();
  if (wanted.size > 0) {
    for await (const batch of inventoryBatches(file, 1000)) {
      for (const row of batch) if (wanted.has(row.sku)) lines.set(row.sku, row.line);
      if (lines.size === wanted.size) break;
    }
  }
  return failures
    .map((failure) => {
      const where = [failure.channel_account_id, failure.listing_id].filter(Boolean).join(' ');
      return {
        line: lines.get(failure.sku ?? '') ?? 0,
        key: failure.sku ?? '',
        status: 'failed',
        code: failure.error?.code ?? 'channel_failed',
        message: `${where ? `${where}: ` : ''}${failure.error?.message ?? 'the channel refused the update'}`,
        channel_account_id: failure.channel_account_id ?? null,
        listing_id: failure.listing_id ?? null,
      };
    })
    .sort((a, b) => a.line - b.line);
}
