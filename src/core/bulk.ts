/**
 * What every bulk command shares: running chunks with bounded concurrency, stopping cleanly
 * on a quota or a signal, and settling every input item in the run's record (./outcomes.ts),
 * sent or not: what the service answered, what a read-back found, what a stop left unsent.
 */
import { BATCH_MAX_ITEMS } from '../contract/contract.js';
import {
  AmbiguousWriteError,
  ApiError,
  FileIncomplete,
  Interrupted,
  QuotaError,
  RateLimitError,
} from '../errors.js';
import {
  type ItemOutcome,
  type ItemStatus,
  NO_ANSWER,
  NOT_REACHED,
  stoppedBy,
  type Verdict,
  WRITE_UNCONFIRMED,
} from './outcomes.js';

/** How many failed items a bulk command names on stderr before pointing at --report. */
export const FAILURES_SHOWN = 10;

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
  /**
   * A chunk the run leaves without an answer: one it never started because it stopped first
   * (NOT_REACHED), or one still in flight when the stop's grace ran out (NO_ANSWER). A chunk
   * whose own work failed is that work's to settle.
   */
  unsettled?: (chunk: C, verdict: Verdict, index: number) => void;
}

/**
 * Why a run stopped before the end: the write quota, the rate limit (a wait too long), a
 * signal, or a file it keeps (the resume journal) that could no longer be written.
 */
export type StopReason = QuotaError | RateLimitError | Interrupted | FileIncomplete;

/** Why a run stopped before the end. */
export class RunStopped extends Error {
  constructor(readonly reason: StopReason) {
    super(reason.message);
  }
}

/**
 * Runs `work` on each chunk with at most `concurrency` at once, in input order of start.
 * A QuotaError, a RateLimitError or the signal stops new chunks; in-flight ones get `graceMs` to land; the rest
 * of the input is still read, so that `unsettled` hears of every chunk never started; then
 * RunStopped is thrown. Any other error also stops the run, after in-flight chunks land.
 */
export async function runChunks<C>(
  chunks: AsyncIterable<C> | Iterable<C>,
  work: (chunk: C, index: number) => Promise<void>,
  options: ChunkRunOptions<C>,
): Promise<void> {
  const inFlight = new Map<Promise<void>, { chunk: C; index: number }>();
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
    const current = index++;
    if (options.skip?.(current, chunk)) continue;
    if (stopReason()) {
      options.unsettled?.(chunk, NOT_REACHED, current);
      continue;
    }
    const task: Promise<void> = work(chunk, current)
      .catch((error: unknown) => {
        failure ??= error;
      })
      .finally(() => inFlight.delete(task));
    inFlight.set(task, { chunk, index: current });
    if (inFlight.size >= options.concurrency) await Promise.race(inFlight.keys());
  }
  const landed = Promise.all(inFlight.keys());
  const stopped = stopReason();
  if (stopped && options.graceMs !== undefined) {
    await Promise.race([landed, new Promise((resolve) => setTimeout(resolve, options.graceMs).unref())]);
    for (const { chunk, index: at } of inFlight.values()) options.unsettled?.(chunk, NO_ANSWER, at);
  } else {
    await landed;
  }
  const reason = stopReason();
  // A stop for the rate limit is a stop like the quota's: summary, report and resume (docs/guide.md, Exit codes).
  if (isStopReason(reason)) throw new RunStopped(reason);
  if (reason) throw reason;
}

function isStopReason(reason: unknown): reason is StopReason {
  return [QuotaError, RateLimitError, Interrupted, FileIncomplete].some((kind) => reason instanceof kind);
}

/** How a run of one request per item goes. */
export interface ItemRunOptions<T> extends BulkRunOptions {
  /** Every outcome as it is known: answered, or given by the stop. */
  settle: (outcome: ItemOutcome) => void;
  /** The report's line and key of an item, for the outcome a stop gives it. */
  describe: (item: T) => Pick<ItemOutcome, 'line' | 'key'>;
  /** True for an item not to send (settled apart: a retry's listing whose cause looks unchanged). */
  skip?: (item: T, index: number) => boolean;
}

/**
 * Runs `work` on each item (bounded, paced) and settles the outcome it returns; an item whose
 * work throws is settled by the error (not sent when the service refused it) and the run stops
 * as runChunks says; items never reached, or in flight past the stop's grace, are settled too.
 */
export async function runItems<T>(
  items: readonly T[],
  work: (item: T, index: number) => Promise<ItemOutcome>,
  options: ItemRunOptions<T>,
): Promise<void> {
  const { settle, describe, skip, ...run } = options;
  const given = (item: T, verdict: Verdict, index: number) =>
    settle({ index, ...describe(item), ...verdict });
  await runChunks(
    items,
    async (item, index) => {
      let outcome: ItemOutcome;
      try {
        outcome = await work(item, index);
      } catch (error) {
        given(item, stoppedBy(error), index);
        throw error;
      }
      settle(outcome);
    },
    { ...run, skip: skip && ((index, item) => skip(item, index)), unsettled: given },
  );
}

/** `items` in chunks of at most `size` (the contract's batch limit), in order. */
export function chunksOf<T>(items: readonly T[], size = BATCH_MAX_ITEMS): T[][] {
  const chunks: T[][] = [];
  for (let start = 0; start < items.length; start += size) chunks.push(items.slice(start, start + size));
  return chunks;
}

/** Each item with its place in the input, the key of the run's record. */
export function indexed<T extends object>(items: readonly T[]): Array<T & { index: number }> {
  return items.map((item, index) => ({ ...item, index }));
}

/** What the chunk sender needs of an item: its place in the input, and the line it came from. */
export interface LineItem {
  index: number;
  line?: number;
  key?: string;
}

/** What one request answered for a chunk: each item's outcome, and the operation it started. */
export interface ChunkAnswer {
  outcomes: ItemOutcome[];
  operationId?: string | null;
}

/** A chunk the service answered: its place in the input, and its answer. */
export interface ChunkDone extends ChunkAnswer {
  index: number;
}

/** What a read-back after a lost answer found. */
export interface ReadBack<I> {
  /** Items the lost request applied, each with the id it made. */
  applied: Map<I, string>;
  /**
   * Items the read-back cannot settle either way, each with why and how to check: neither
   * claimed nor sent again, they are failed as `write_unconfirmed`.
   */
  unconfirmed?: Map<I, string>;
}

/** How a chunked write is sent (inventory push, products upsert, listings publish). */
export interface ChunkSendOptions<I extends LineItem> extends Omit<ChunkRunOptions<I[]>, 'unsettled'> {
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
  readBack?: (chunk: I[], sentAt: Date) => Promise<ReadBack<I>>;
  /** The clock a chunk's `sentAt` is read from (default Date.now). */
  now?: () => number;
  /** A chunk refused as a whole stops the run instead of failing its items. */
  refusalStops?: boolean;
  /** Every outcome as it is known: answered, read back, or given by a stop. */
  settle: (outcomes: ItemOutcome[]) => void;
  /** A chunk the service answered whole (after a read-back too): its place and its operation. */
  onChunk?: (done: ChunkDone) => void;
}

/**
 * Sends every chunk (bounded, paced) and settles each item as its chunk lands: what the service
 * answered; after a lost answer, what the read-back settles; for a chunk refused as a whole,
 * its items failed with the refusal. Anything else, and a quota or a signal (RunStopped), stops
 * the run after in-flight chunks land, every item still settled (docs/guide.md, Output).
 */
export async function sendChunks<I extends LineItem>(
  chunks: AsyncIterable<I[]> | Iterable<I[]>,
  options: ChunkSendOptions<I>,
): Promise<void> {
  const given = (items: readonly I[], verdict: Verdict) =>
    options.settle(items.map((item) => ({ ...itemOf(item, options), ...verdict })));
  await runChunks(
    chunks,
    async (chunk, index) => {
      const sentAt = new Date((options.now ?? Date.now)());
      // Items a read-back settled before the chunk's resend (rare: only after a lost answer).
      let early: Set<I> | undefined;
      const settledEarly = (outcomes: ItemOutcome[], items: readonly I[]) => {
        early ??= new Set();
        for (const item of items) early.add(item);
        options.settle(outcomes);
      };
      let answer: ChunkAnswer;
      try {
        answer = await settleChunk(chunk, sentAt, options, settledEarly);
      } catch (error) {
        given(early ? chunk.filter((item) => !early?.has(item)) : chunk, stoppedBy(error));
        throw error;
      }
      // Outcomes come in the chunk's order; those a read-back settled already are not told twice.
      options.settle(early ? answer.outcomes.filter((_, at) => !early?.has(chunk[at])) : answer.outcomes);
      options.onChunk?.({ index, ...answer });
    },
    { ...options, unsettled: given },
  );
}

// A batch refused as a whole fails its items; anything else (auth, quota, network) stops the run.
const CHUNK_LEVEL_REFUSALS = new Set([400, 404, 409, 412, 413, 422]);

async function settleChunk<I extends LineItem>(
  chunk: I[],
  sentAt: Date,
  options: ChunkSendOptions<I>,
  settled: (outcomes: ItemOutcome[], items: readonly I[]) => void,
): Promise<ChunkAnswer> {
  try {
    return await options.send(chunk);
  } catch (error) {
    if (error instanceof AmbiguousWriteError && options.readBack) {
      const found = await options.readBack(chunk, sentAt);
      return { outcomes: await sendUnapplied(chunk, found, options, settled) };
    }
    if (options.refusalStops || !(error instanceof ApiError) || !CHUNK_LEVEL_REFUSALS.has(error.status))
      throw error;
    const outcomes = chunk.map((item) => ({
      ...itemOf(item, options),
      status: 'failed' as const,
      code: error.code,
      message: error.message,
    }));
    return { outcomes };
  }
}

/**
 * A chunk whose answer was lost: items the read-back found landed, and those it cannot settle
 * are unconfirmed, both settled at once (a failing resend cannot take them back); the rest go
 * again in one request (which may itself fail ambiguously, and then stops the run).
 */
async function sendUnapplied<I extends LineItem>(
  chunk: I[],
  { applied, unconfirmed = new Map() }: ReadBack<I>,
  options: ChunkSendOptions<I>,
  settled: (outcomes: ItemOutcome[], items: readonly I[]) => void,
): Promise<ItemOutcome[]> {
  const known = new Map<I, ItemOutcome>();
  for (const item of chunk) {
    const id = applied.get(item);
    const why = unconfirmed.get(item);
    if (id !== undefined) {
      const status: ItemStatus = options.simulated ? 'simulated' : 'created';
      known.set(item, { ...itemOf(item, options), status, message: id });
    } else if (why !== undefined) {
      known.set(item, { ...itemOf(item, options), status: 'failed', code: WRITE_UNCONFIRMED, message: why });
    }
  }
  settled([...known.values()], [...known.keys()]);
  const again = chunk.filter((item) => !known.has(item));
  const resent = again.length > 0 ? (await options.send(again)).outcomes : [];
  const outcomeOf = new Map(again.map((item, index) => [item, resent[index]]));
  return chunk.map((item) => known.get(item) ?? (outcomeOf.get(item) as ItemOutcome));
}

/** An item's place, line and key, as its outcome carries them. */
function itemOf<I extends LineItem>(item: I, options: Pick<ChunkSendOptions<I>, 'keyOf'>) {
  return { index: item.index, line: item.line, key: options.keyOf?.(item) ?? item.key ?? '' };
}

/** What a batch endpoint answered for one item (inventory, products and listings batches alike). */
export interface BatchEntry {
  status: string;
  id?: string | null;
  error?: { code: string; message?: string | null } | null;
}

/** How a batch's answer is read into outcomes. */
export interface BatchReading<I> {
  /** Test keys: the service simulated every write. */
  simulated: boolean;
  /** What an item is, for "the service sent no result for this SKU". */
  noun: string;
  /** What names an item in its outcome (default: its `key`). */
  keyOf?: (item: I) => string;
  /** True for a refusal that means the item was done already (a listing that exists): `skipped`. */
  alreadyDone?: (entry: BatchEntry) => boolean;
}

/**
 * Pairs each item of a chunk with what the service answered for it (`entryOf`: by its place in
 * the request, or by its key): no answer fails it (`missing_result`), an error fails it with the
 * service's code, else the service's status (`simulated` for a test key) with the id it made.
 */
export function batchOutcomes<I extends LineItem>(
  chunk: readonly I[],
  entryOf: (item: I, at: number) => BatchEntry | undefined,
  reading: BatchReading<I>,
): ItemOutcome[] {
  return chunk.map((item, at): ItemOutcome => {
    const entry = entryOf(item, at);
    const { index, line } = item;
    const key = reading.keyOf?.(item) ?? item.key ?? '';
    if (!entry) {
      const message = `the service sent no result for this ${reading.noun}`;
      return { index, line, key, status: 'failed', code: 'missing_result', message };
    }
    const { error } = entry;
    if (error && reading.alreadyDone?.(entry))
      return { index, line, key, status: 'skipped', code: error.code, message: error.message };
    if (entry.status === 'failed' || error)
      return { index, line, key, status: 'failed', code: error?.code, message: error?.message };
    if (!reading.simulated && !KNOWN_ITEM_STATUSES.has(entry.status)) {
      // A status the contract does not name says neither done nor refused: unconfirmed, never updated.
      const message = `the service answered status "${entry.status}", which svc does not know; check the store before running it again`;
      return { index, line, key, status: 'failed', code: WRITE_UNCONFIRMED, message };
    }
    const status: ItemStatus = reading.simulated ? 'simulated' : (entry.status as ItemStatus);
    return entry.id ? { index, line, key, status, message: entry.id } : { index, line, key, status };
  });
}

/** The per-item statuses of a batch answer the contract names for a write done. */
const KNOWN_ITEM_STATUSES = new Set(['created', 'updated', 'unchanged']);
