/**
 * Following operations until each reaches a terminal status: polls with a growing pause,
 * one list crawl for many ids (GET /operations?created_after) and single GETs for a few.
 * Followers start from ./follow.ts, which also decides how a wait ends the run.
 */
import type { ApiClient } from '../../client/client.js';
import { getOperation, listOperations } from '../../client/resources/operations.js';
import { OPERATION_TERMINAL_STATUSES } from '../../contract/contract.js';
import type { Operation } from '../../contract/schemas/operation.js';

/** How long and how often to poll. */
export interface WaitOptions {
  /** Give up after this long with the rest still pending (0: look once). */
  timeoutMs: number;
  signal?: AbortSignal;
  /** After every poll: how many of the operations have ended, and the latest state of each. */
  onProgress?: (progress: WaitProgress) => void;
  /** A lower bound of the operations' created_at, so that many can be polled with one crawl. */
  createdAfter?: string;
  /** First pause between polls; it grows by half each time up to maxDelayMs. */
  initialDelayMs?: number;
  maxDelayMs?: number;
  now?: () => number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/** Where the wait stands. */
interface WaitProgress {
  done: number;
  total: number;
  operations: Operation[];
}

/** How the wait ended: every operation as last seen, and those still not terminal. */
export interface WaitResult {
  operations: Operation[];
  pending: Operation[];
  /** Terminal with some result failed: `partial` or `failed`. */
  failed: Operation[];
}

/** Polls between a single GET per operation and one list crawl for all of them. */
const CRAWL_ABOVE = 3;
const DEFAULT_INITIAL_DELAY_MS = 500;
const DEFAULT_MAX_DELAY_MS = 5_000;

/** True for `succeeded`, `partial` and `failed`. */
function isTerminal(status: string | undefined): boolean {
  return (OPERATION_TERMINAL_STATUSES as readonly string[]).includes(status ?? '');
}

/** Polls the operations until each is terminal or the time runs out; never throws for pending ones. */
export async function waitForOperations(
  client: ApiClient,
  ids: readonly string[],
  options: WaitOptions,
): Promise<WaitResult> {
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? sleepFor;
  const unique = [...new Set(ids)];
  const latest = new Map<string, Operation>();
  const started = now();
  let delay = options.initialDelayMs ?? DEFAULT_INITIAL_DELAY_MS;
  const open = () => unique.filter((id) => !isTerminal(latest.get(id)?.status));
  for (;;) {
    options.signal?.throwIfAborted();
    await poll(client, open(), latest, options.createdAfter ?? earliest(latest), options.signal);
    const left = open();
    options.onProgress?.({
      done: unique.length - left.length,
      total: unique.length,
      operations: current(unique, latest),
    });
    const remaining = options.timeoutMs - (now() - started);
    if (left.length === 0 || remaining <= 0) break;
    await sleep(Math.min(delay, remaining), options.signal);
    delay = Math.min(delay * 1.5, options.maxDelayMs ?? DEFAULT_MAX_DELAY_MS);
  }
  const operations = current(unique, latest);
  return {
    operations,
    pending: operations.filter((operation) => !isTerminal(operation.status)),
    failed: operations.filter((operation) => operation.status === 'partial' || operation.status === 'failed'),
  };
}

async function poll(
  client: ApiClient,
  ids: string[],
  latest: Map<string, Operation>,
  createdAfter: string | undefined,
  signal: AbortSignal | undefined,
): Promise<void> {
  let missing = ids;
  if (ids.length > CRAWL_ABOVE && createdAfter) {
    const wanted = new Set(ids);
    const seen = new Set<string>();
    const crawl = listOperations(client, { created_after: createdAfter }, 'all', signal);
    for await (const operation of crawl) {
      if (!wanted.has(operation.id)) continue;
      latest.set(operation.id, operation);
      seen.add(operation.id);
    }
    // An operation older than the bound (or hidden from the list) is asked for on its own.
    missing = ids.filter((id) => !seen.has(id));
  }
  for (let index = 0; index < missing.length; index += 8) {
    const slice = missing.slice(index, index + 8);
    const answers = await Promise.all(slice.map((id) => getOperation(client, id)));
    for (const operation of answers) latest.set(operation.id, operation);
  }
}

function earliest(latest: Map<string, Operation>): string | undefined {
  let min: string | undefined;
  for (const operation of latest.values())
    if (min === undefined || operation.created_at < min) min = operation.created_at;
  return min;
}

function current(ids: string[], latest: Map<string, Operation>): Operation[] {
  return ids.flatMap((id) => {
    const operation = latest.get(id);
    return operation ? [operation] : [];
  });
}

function sleepFor(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
