import type { BatchResult } from '../../api/schemas/batch.js';
import type { Product, ProductInput } from '../../api/schemas/product.js';
import { type BulkRunOptions, batchOutcomes, chunksOf, indexed, sendChunks } from '../bulk.js';
import type { ItemOutcome } from '../outcomes.js';
import { isMatchable, type UpsertItem } from './upsert-file.js';

/** What the upsert needs from outside: how to send, and where outcomes go. */
export interface UpsertOptions extends BulkRunOptions {
  /** Test keys: the service simulated every write. */
  simulated: boolean;
  send: (inputs: ProductInput[]) => Promise<BatchResult>;
  /** Every product's outcome as it is known: answered, read back, or not sent because the run stopped. */
  settle: (outcomes: ItemOutcome[]) => void;
  /** Items per request; the contract's 100 unless a test asks for fewer. */
  chunkSize?: number;
  /**
   * After an ambiguous failure: the id of the product each unmatched item (no variants)
   * created, if it did, read back from the service (created at or after `since`).
   */
  findCreated?: (items: readonly UpsertItem[], since: Date) => Promise<Map<UpsertItem, string>>;
  /** When a chunk is sent, at the earliest: the service's clock less slack for skew (default: ours). */
  sendClock?: () => number;
}

/**
 * Sends every chunk; stops on quota or signal (RunStopped) after in-flight ones land. Only a
 * chunk's unmatched items (no variants) could be created twice by a repeat, so after a lost
 * answer they are read back; items matched by SKU go again safely.
 */
export async function upsertProducts(items: readonly UpsertItem[], options: UpsertOptions): Promise<void> {
  const { simulated, send, settle, chunkSize, findCreated, sendClock, ...run } = options;
  await sendChunks(chunksOf(indexed(items), chunkSize), {
    ...run,
    simulated,
    now: sendClock,
    send: async (chunk) => {
      const byIndex = new Map((await send(chunk.map((item) => item.input))).data.map((e) => [e.index, e]));
      // The product id made or updated is the outcome's message.
      return { outcomes: batchOutcomes(chunk, (_, at) => byIndex.get(at), { simulated, noun: 'product' }) };
    },
    readBack:
      findCreated &&
      (async (chunk, sentAt) => ({
        applied: (await findCreated(
          chunk.filter((item) => !isMatchable(item.input)),
          sentAt,
        )) as Map<(typeof chunk)[number], string>,
      })),
    settle,
  });
}

/**
 * Which unmatched items a lost request created: for each, a product with its title, no
 * variants and created at or after `since`, each product claimed once (read from `products`,
 * the products updated since then).
 */
export async function createdByTitle(
  items: readonly UpsertItem[],
  products: AsyncIterable<Product>,
  since: Date,
): Promise<Map<UpsertItem, string>> {
  const candidates: Product[] = [];
  for await (const product of products) {
    const created = Date.parse(product.created_at ?? '');
    if ((product.variants?.length ?? 0) === 0 && created >= since.getTime()) candidates.push(product);
  }
  const found = new Map<UpsertItem, string>();
  for (const item of items) {
    const at = candidates.findIndex((product) => product.title === item.input.title);
    if (at < 0) continue;
    found.set(item, candidates[at].id);
    candidates.splice(at, 1);
  }
  return found;
}
