import type { BatchResult } from '../../api/schemas/batch.js';
import type { ProductInput } from '../../api/schemas/product.js';
import { chunksOf, type ItemOutcome, refusedChunk, runChunks } from '../bulk.js';
import type { UpsertItem } from './upsert-file.js';

/** What the upsert needs from outside: how to send, and where outcomes go. */
export interface UpsertOptions {
  concurrency: number;
  /** Test keys: the service simulated every write. */
  simulated: boolean;
  send: (inputs: ProductInput[]) => Promise<BatchResult>;
  onChunk: (outcomes: ItemOutcome[]) => void;
  signal?: AbortSignal;
  graceMs?: number;
  /** Items per request; the contract's 100 unless a test asks for fewer. */
  chunkSize?: number;
}

/** Sends every chunk; stops on quota or signal (RunStopped) after in-flight ones land. */
export async function upsertProducts(items: readonly UpsertItem[], options: UpsertOptions): Promise<void> {
  await runChunks(
    chunksOf(items, options.chunkSize),
    async (chunk) => {
      let outcomes: ItemOutcome[];
      try {
        outcomes = batchOutcomes(
          chunk,
          await options.send(chunk.map((item) => item.input)),
          options.simulated,
        );
      } catch (error) {
        const refused = refusedChunk(chunk, error);
        if (!refused) throw error;
        outcomes = refused;
      }
      options.onChunk(outcomes);
    },
    { concurrency: options.concurrency, signal: options.signal, graceMs: options.graceMs },
  );
}

/** Pairs each sent product with the service's result for its index; the product id is the message. */
export function batchOutcomes(
  chunk: readonly UpsertItem[],
  result: BatchResult,
  simulated: boolean,
): ItemOutcome[] {
  const byIndex = new Map(result.data.map((entry) => [entry.index, entry]));
  return chunk.map((item, index) => {
    const entry = byIndex.get(index);
    if (!entry) {
      return {
        line: item.line,
        key: item.key,
        status: 'failed',
        code: 'missing_result',
        message: 'the service sent no result for this product',
      };
    }
    if (entry.status === 'failed' || entry.error) {
      return {
        line: item.line,
        key: item.key,
        status: 'failed',
        code: entry.error?.code,
        message: entry.error?.message,
      };
    }
    return {
      line: item.line,
      key: item.key,
      status: simulated ? 'simulated' : entry.status,
      message: entry.id ?? undefined,
    };
  });
}
