/** `products upsert`: chunks of products to POST /products/batch, and what a lost answer made. */
import type { ApiClient } from '../../client/client.js';
import type { BatchResult } from '../../contract/schemas/batch.js';
import type { Product, ProductInput } from '../../contract/schemas/product.js';
import { type BulkRunOptions, batchOutcomes, chunksOf, indexed, type ReadBack, sendChunks } from '../bulk.js';
import type { RunRecord } from '../bulk-run.js';
import type { ItemOutcome } from '../outcomes.js';
import { judgeLostItems, type RunItem, UpsertLedger } from './lost-answer.js';
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
   * After an ambiguous failure: the products updated at or after `since`, among which are any
   * the lost request made. Without it, a lost answer stops the run.
   */
  updatedSince?: (since: Date) => AsyncIterable<Product>;
  /** When a chunk is sent, at the earliest: the service's clock less slack for skew (default: ours). */
  sendClock?: () => number;
}

/**
 * Sends every chunk; stops on quota or signal (RunStopped) after in-flight ones land. Only a
 * chunk's unmatched items (no variants) could be created twice by a repeat, so after a lost
 * answer they are read back (lost-answer.ts); items matched by SKU go again safely.
 */
export async function upsertProducts(items: readonly UpsertItem[], options: UpsertOptions): Promise<void> {
  const { simulated, send, settle, chunkSize, updatedSince, sendClock, ...run } = options;
  const known = new UpsertLedger();
  await sendChunks(chunksOf(indexed(items), chunkSize), {
    ...run,
    simulated,
    now: sendClock,
    send: async (chunk) => {
      const result = await known.sending(chunk, () => send(chunk.map((item) => item.input)));
      const byIndex = new Map(result.data.map((entry) => [entry.index, entry]));
      // The product id made or updated is the outcome's message.
      const outcomes = batchOutcomes(chunk, (_, at) => byIndex.get(at), { simulated, noun: 'product' });
      for (const [at, outcome] of outcomes.entries())
        known.answered(chunk[at], outcome.status !== 'failed' ? outcome.message : null);
      return { outcomes };
    },
    readBack: updatedSince && ((chunk, sentAt) => readBack(chunk, sentAt, known, updatedSince)),
    settle,
  });
}

/** How far before a lost request's send the read-back looks for what it created (clock skew). */
const READ_BACK_SLACK_MS = 60_000;

/**
 * Upserts checked items through `client` in chunks of 100, each outcome recorded in `run`: the
 * run `svc products upsert` and the library's `products.upsertAll` share. A lost answer is read
 * back from the products updated since the send (by the service's clock where known).
 */
export async function sendUpsert(
  client: ApiClient,
  items: readonly UpsertItem[],
  run: RunRecord,
  now: () => number,
): Promise<void> {
  const { listProducts, upsertProducts: sendBatch } = await import('../../client/resources/products.js');
  await upsertProducts(items, {
    ...run.runOptions,
    simulated: !client.live,
    send: (inputs) => {
      run.countRequest();
      // No signal: a batch in flight at a stop gets the grace to land (the client's stopSignal).
      return sendBatch(client, inputs);
    },
    settle: (outcomes) => run.record(outcomes),
    sendClock: () => (client.lastServerDate?.getTime() ?? now()) - READ_BACK_SLACK_MS,
    updatedSince: (since) => listProducts(client, { updated_after: since.toISOString() }, 'all'),
  });
}

/** What a lost request made of its products without variants, judged once every other request answered. */
async function readBack<I extends RunItem>(
  chunk: readonly I[],
  since: Date,
  known: UpsertLedger,
  updatedSince: (since: Date) => AsyncIterable<Product>,
): Promise<ReadBack<I>> {
  const lost = chunk.filter((item) => !isMatchable(item.input));
  if (lost.length === 0) return { applied: new Map() };
  // A request still in flight may have made a product of the same title: its answer says so first.
  await known.settleInFlight();
  const created: Product[] = [];
  for await (const product of updatedSince(since)) {
    const at = Date.parse(product.created_at ?? '');
    if ((product.variants?.length ?? 0) === 0 && at >= since.getTime() && !known.isAccounted(product.id))
      created.push(product);
  }
  const inChunk = new Set<RunItem>(chunk);
  const found = judgeLostItems(lost, {
    created,
    openElsewhere: (title) => known.openWithTitle(title, inChunk),
    since,
  });
  for (const [item, id] of found.applied) known.answered(item, id);
  return found;
}
