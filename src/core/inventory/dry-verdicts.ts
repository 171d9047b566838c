/**
 * What a push would record for each row of a checked file, from reads only, as the live push
 * records it: a row a changed-only selection leaves out is unchanged (or failed, its SKU not
 * in the store); a row whose batch an interrupted push confirmed is skipped (a resume); a row
 * sent is judged against the store's live values: one that changes its SKU is sent, one that
 * changes nothing is unchanged (a skip), one whose SKU the store lacks fails as the service
 * fails it.
 */
import type { ApiClient } from '../../client/client.js';
import { ERROR_CODES } from '../../contract/contract.js';
import { compareRow } from './changes.js';
import { type CheckedFile, inventoryBatches, type PlacedRow } from './check.js';
import { type LiveIndex, LiveStockRead } from './live-stock.js';
import {
  CONFIRMED_NOTE,
  lineKinds,
  type PushSelection,
  type RowKind,
  UNCHANGED_NOTE,
  UNKNOWN_NOTE,
} from './selection.js';
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

/**
 * What the push knows of the store for the rows it sends: its live values, or the comparison
 * it made already (the read of --changed-only or --backup: the changed and unknown lines).
 */
export type StoreView = { live: LiveIndex } | { compared: PushSelection };

/** How the live push sends the file: its batches, its selection, the batches already confirmed. */
export interface VerdictPlan {
  batchSize: number;
  /** --changed-only (of a resume, the interrupted push's): the rows it sends; the others it settles unsent. */
  selection?: PushSelection;
  /** A resume: whether the interrupted push confirmed the batch (by index among the batches sent). */
  isConfirmed?: (batch: number) => boolean;
}

/** Every row of the file in order, with what the live push would record for it. */
export async function* pushVerdicts(
  file: CheckedFile,
  store: LiveIndex | StoreView,
  plan: VerdictPlan = { batchSize: 1 },
): AsyncGenerator<PushVerdict> {
  const view: StoreView = 'live' in store || 'compared' in store ? store : { live: store };
  const selected = plan.selection && lineKinds(plan.selection);
  const compared = 'compared' in view ? lineKinds(view.compared) : undefined;
  // A row's place among the rows sent, which names its batch.
  let sent = 0;
  for await (const rows of inventoryBatches(file, 1000))
    for (const row of rows) {
      const { line, sku: key } = row;
      const kind = selected?.(line);
      if (kind === 'unknown' || kind === 'unchanged') {
        yield { line, key, ...leftOut(kind) };
        continue;
      }
      const batch = Math.floor((selected ? sent : row.index) / plan.batchSize);
      sent++;
      if (plan.isConfirmed?.(batch)) {
        yield { line, key, status: 'would_skip', message: CONFIRMED_NOTE };
        continue;
      }
      yield { line, key, ...sentVerdict(row, view, compared) };
    }
}

/** A row the selection leaves out: failed (not in the store) or unchanged, without a request. */
function leftOut(kind: Exclude<RowKind, 'send'>): Omit<PushVerdict, 'line' | 'key'> {
  return kind === 'unknown'
    ? { status: 'would_fail', code: ERROR_CODES.skuNotFound, message: UNKNOWN_NOTE }
    : { status: 'would_skip', message: UNCHANGED_NOTE };
}

/** What the service answers for a row sent: updated, unchanged, or failed (no such SKU). */
function sentVerdict(
  row: PlacedRow,
  view: StoreView,
  compared: ((line: number) => RowKind) | undefined,
): Omit<PushVerdict, 'line' | 'key'> {
  const kind = compared ? compared(row.line) : liveKind(row, 'live' in view ? view.live : new Map());
  if (kind === 'send') return { status: 'would_send' };
  if (kind === 'unknown')
    return {
      status: 'would_fail',
      code: ERROR_CODES.skuNotFound,
      message: `no variant in the store has the SKU ${JSON.stringify(row.sku)}`,
    };
  return { status: 'would_skip', message: 'unchanged: the store has these values already' };
}

/** A row against the store's live values: it changes its SKU, changes nothing, or names none. */
function liveKind(row: PlacedRow, live: LiveIndex): RowKind {
  const change = compareRow(row, live.get(row.sku));
  if (!change) return 'unchanged';
  return change.status === 'not_in_store' ? 'unknown' : 'send';
}
