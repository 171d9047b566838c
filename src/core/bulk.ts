/**
 * What every bulk command shares: running chunks with bounded concurrency, stopping cleanly
 * on a quota or a signal, and the per-item tally that ends in CLI.md's summary.
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

/** CLI.md's bulk summary. */
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
    // A created item counts as updated: the summary's shape is fixed by CLI.md.
    const counted = outcome.status === 'created' ? 'updated' : outcome.status;
    if ((COUNTED_STATUSES as readonly string[]).includes(counted)) this.summary[counted as CountedStatus]++;
  }
}

/** How a chunked run behaves. */
export interface ChunkRunOptions<C> {
  /** Chunks still in flight at once; the pacer decides when each is actually sent. */
  concurrency: number;
  signal?: AbortSignal;
  /** True for a chunk to pass over (already confirmed by an earlier, resumed run). */
  skip?: (index: number, chunk: C) => boolean;
  /** How long in-flight chunks may take to land after a stop before the run gives up on them. */
  graceMs?: number;
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

// A batch refused as a whole fails its items; anything else (auth, quota, network) stops the run.
const CHUNK_LEVEL_REFUSALS = new Set([400, 404, 409, 412, 413, 422]);

/** Every item of a chunk failed with the service's refusal, or undefined when `error` must stop the run. */
export function refusedChunk(
  chunk: readonly { line: number; key: string }[],
  error: unknown,
): ItemOutcome[] | undefined {
  if (!(error instanceof ApiError) || !CHUNK_LEVEL_REFUSALS.has(error.status)) return undefined;
  return chunk.map((item) => ({
    line: item.line,
    key: item.key,
    status: 'failed',
    code: error.code,
    message: error.message,
  }));
}

/**
 * A chunk's outcomes: what `send` answered; after an ambiguous failure, what `recover` settles
 * by reading back (when the use-case can; else the failure stops the run); a chunk refused as
 * a whole fails its items; anything else stops the run.
 */
export async function settleChunk(
  chunk: readonly { line: number; key: string }[],
  send: () => Promise<ItemOutcome[]>,
  recover?: () => Promise<ItemOutcome[]>,
): Promise<ItemOutcome[]> {
  try {
    return await send();
  } catch (error) {
    if (error instanceof AmbiguousWriteError && recover) return recover();
    const refused = refusedChunk(chunk, error);
    if (!refused) throw error;
    return refused;
  }
}
