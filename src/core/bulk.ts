/**
 * What every bulk command shares: running chunks with bounded concurrency, stopping cleanly
 * on a quota or a signal, and the per-item tally that ends in the summary (README, Output).
 */
import { BATCH_MAX_ITEMS } from '../api/contract.js';
import { AmbiguousWriteError, ApiError, Interrupted, QuotaError } from '../errors.js';

/** One item's outcome, as the summary counts it and the report lists it. */
export interface ItemOutcome {
  /** Line in the input file (0 when the item did not come from a file). */
  line: number;
  /** The item's key: a SKU, an order id, a listing id. */
  key: string;
  status: 'updated' | 'unchanged' | 'created' | 'failed' | 'skipped' | 'simulated' | string;
  code?: string | null;
  message?: string | null;
}

/** The bulk summary (README, Output). */
export interface BulkSummary {
  total: number;
  updated: number;
  unchanged: number;
  failed: number;
  skipped: number;
  simulated: number;
  requests: number;
  seconds: number;
}

const COUNTED_STATUSES = ['updated', 'unchanged', 'failed', 'skipped', 'simulated'] as const;
type CountedStatus = (typeof COUNTED_STATUSES)[number];

/** How many failed items a bulk command names on stderr before pointing at --report. */
export const FAILURES_SHOWN = 10;

/** Counts outcomes into a summary as they arrive, keeping the first failures to name. */
export class Tally {
  readonly firstFailures: ItemOutcome[] = [];

  readonly summary: BulkSummary = {
    total: 0,
    updated: 0,
    unchanged: 0,
    failed: 0,
    skipped: 0,
    simulated: 0,
    requests: 0,
    seconds: 0,
  };

  add(outcome: ItemOutcome): void {
    this.summary.total++;
    if (outcome.status === 'failed' && this.firstFailures.length < FAILURES_SHOWN)
      this.firstFailures.push(outcome);
    // A created item counts as updated: the summary's shape is fixed (README, Output).
    const counted = outcome.status === 'created' ? 'updated' : outcome.status;
    if ((COUNTED_STATUSES as readonly string[]).includes(counted)) this.summary[counted as CountedStatus]++;
  }
}

/** "line 3: NOT-A-SKU: sku_not_found: No variant has…": one outcome on one line. */
export function outcomeLine(outcome: ItemOutcome): string {
  const why = [outcome.code, outcome.message].filter(Boolean).join(': ');
  return `${outcome.line ? `line ${outcome.line}: ` : ''}${outcome.key}: ${why}`;
}

/** How every bulk run goes: its pace of work, and how it stops. */
export interface BulkRunOptions {
  /** Requests in flight at once; the pacer decides when each is actually sent. */
  concurrency: number;
  /** Aborted on a signal: no new work starts. */
  signal?: AbortSignal;
  /** How long in-flight work may take to land after a stop before the run gives up on it. */
  graceMs?: number;
}

/** How a chunked run behaves. */
export interface ChunkRunOptions<C> extends BulkRunOptions {
  /** True for a chunk to pass over (already confirmed by an earlier, resumed run). */
  skip?: (index: number, chunk: C) => boolean;
}

/** Why a run stopped before the end, with the chunks that were confirmed before it did. */
export class RunStopped extends Error {
  constructor(readonly reason: QuotaError | Interrupted) {
    super(reason.message);
  }
}

/**
 * Runs `work` on each chunk with at most `concurrency` at once, in input order of start.
 * A QuotaError or the signal stops new chunks; in-flight ones get `graceMs` to land; then
 * RunStopped is thrown. Any other error also stops the run, after in-flight chunks land.
 */
export async function runChunks<C>(
  chunks: AsyncIterable<C> | Iterable<C>,
  work: (chunk: C, index: number) => Promise<void>,
  options: ChunkRunOptions<C>,
): Promise<void> {
  const inFlight = new Set<Promise<void>>();
  let failure: unknown;
  let index = 0;
  const stopReason = () => {
    if (failure) return failure;
    const reason = options.signal?.reason;
    return options.signal?.aborted
      ? reason instanceof Interrupted
        ? reason
        : new Interrupted('SIGINT')
      : undefined;
  };
  for await (const chunk of chunks) {
    if (stopReason()) break;
    const current = index++;
    if (options.skip?.(current, chunk)) continue;
    const task: Promise<void> = work(chunk, current)
      .catch((error: unknown) => {
        failure ??= error;
      })
      .finally(() => inFlight.delete(task));
    inFlight.add(task);
    if (inFlight.size >= options.concurrency) await Promise.race(inFlight);
  }
  const landed = Promise.all(inFlight);
  const stopped = stopReason();
  if (stopped && options.graceMs !== undefined) {
    await Promise.race([landed, new Promise((resolve) => setTimeout(resolve, options.graceMs).unref())]);
  } else {
    await landed;
  }
  const reason = stopReason();
  if (reason instanceof QuotaError || reason instanceof Interrupted) throw new RunStopped(reason);
  if (reason) throw reason;
}

/** `items` in chunks of at most `size` (the contract's batch limit), in order. */
export function chunksOf<T>(items: readonly T[], size = BATCH_MAX_ITEMS): T[][] {
  const chunks: T[][] = [];
  for (let start = 0; start < items.length; start += size) chunks.push(items.slice(start, start + size));
  return chunks;
}

/** What the chunk sender needs of an item: the line it came from (its key comes from `keyOf`). */
export interface LineItem {
  line: number;
  key?: string;
}

/** What one request answered for a chunk: each item's outcome, and the operation it started. */
export interface ChunkAnswer {
  outcomes: ItemOutcome[];
  operationId?: string | null;
}

/** A chunk that landed: its place in the input, and its answer. */
export interface ChunkDone extends ChunkAnswer {
  index: number;
}

/** How a chunked write is sent (inventory push, products upsert, listings publish). */
export interface ChunkSendOptions<I extends LineItem> extends ChunkRunOptions<I[]> {
  /** Test keys: the service simulates every write (items found by a read-back are `simulated`). */
  simulated: boolean;
  /** One request for the chunk, its answer paired with the items. */
  send: (chunk: I[]) => Promise<ChunkAnswer>;
  /** What names an item in its outcome (default: its `key`). */
  keyOf?: (item: I) => string;
  /**
   * For a write not safe to repeat blindly: after an ambiguous failure, which items the lost
   * request did apply (each with the id it made), read back from the service; the rest are sent
   * again. Without it, an ambiguous failure stops the run.
   */
  readBack?: (chunk: I[], sentAt: Date) => Promise<Map<I, string>>;
  /** The clock a chunk's `sentAt` is read from (default Date.now). */
  now?: () => number;
  /** A chunk refused as a whole stops the run instead of failing its items. */
  refusalStops?: boolean;
  onChunk: (done: ChunkDone) => void;
}

/**
 * Sends every chunk (bounded, paced) and hands each one's outcomes on as it lands: what the
 * service answered; after a lost answer, what the read-back settles; for a chunk refused as a
 * whole, its items failed with the refusal. Anything else, and a quota or a signal
 * (RunStopped), stops the run after in-flight chunks land.
 */
export async function sendChunks<I extends LineItem>(
  chunks: AsyncIterable<I[]> | Iterable<I[]>,
  options: ChunkSendOptions<I>,
): Promise<void> {
  await runChunks(
    chunks,
    async (chunk, index) => {
      const sentAt = new Date((options.now ?? Date.now)());
      options.onChunk({ index, ...(await settleChunk(chunk, sentAt, options)) });
    },
    options,
  );
}

// A batch refused as a whole fails its items; anything else (auth, quota, network) stops the run.
const CHUNK_LEVEL_REFUSALS = new Set([400, 404, 409, 412, 413, 422]);

async function settleChunk<I extends LineItem>(
  chunk: I[],
  sentAt: Date,
  options: ChunkSendOptions<I>,
): Promise<ChunkAnswer> {
  try {
    return await options.send(chunk);
  } catch (error) {
    if (error instanceof AmbiguousWriteError && options.readBack)
      return { outcomes: await sendUnapplied(chunk, await options.readBack(chunk, sentAt), options) };
    if (options.refusalStops || !(error instanceof ApiError) || !CHUNK_LEVEL_REFUSALS.has(error.status))
      throw error;
    const outcomes = chunk.map((item) => ({
      line: item.line,
      key: keyOf(item, options),
      status: 'failed',
      code: error.code,
      message: error.message,
    }));
    return { outcomes };
  }
}

/**
 * A chunk whose answer was lost: items the read-back found landed; the rest go again in one
 * request (which may itself fail ambiguously, and then stops the run).
 */
async function sendUnapplied<I extends LineItem>(
  chunk: I[],
  applied: Map<I, string>,
  options: ChunkSendOptions<I>,
): Promise<ItemOutcome[]> {
  const again = chunk.filter((item) => !applied.has(item));
  const resent = again.length > 0 ? (await options.send(again)).outcomes : [];
  const outcomeOf = new Map(again.map((item, index) => [item, resent[index]]));
  return chunk.map(
    (item) =>
      outcomeOf.get(item) ?? {
        line: item.line,
        key: keyOf(item, options),
        status: options.simulated ? 'simulated' : 'created',
        message: applied.get(item),
      },
  );
}

function keyOf<I extends LineItem>(item: I, options: ChunkSendOptions<I>): string {
  return options.keyOf?.(item) ?? item.key ?? '';
}
