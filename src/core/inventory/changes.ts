/**
 * A checked inventory file against the store's live values: which rows a push would change,
 * and how (`inventory diff`, `push --changed-only`, `push --backup`, the exact zeroing guard).
 */
import { type CheckedFile, inventoryBatches } from './check.js';
import type { InventoryRow } from './csv-rows.js';
import type { LiveIndex, LiveStock } from './live-stock.js';

/** How a row's quantity moves; `to_zero` is 0 from anything else. */
type QuantityMove = 'up' | 'down' | 'to_zero';

/** One row that a push would change, or whose SKU the store does not have. */
export interface RowChange {
  line: number;
  sku: string;
  /** `changed`, or `not_in_store` (a push fails it: sku_not_found). */
  status: 'changed' | 'not_in_store';
  quantity?: QuantityMove;
  /** Before and after of each field the row changes (absent: left as it is). */
  quantity_before?: number | null;
  quantity_after?: number;
  price_before?: string | null;
  price_after?: string;
}

/** The counts `inventory diff` prints and the push plan line quotes. */
export interface ChangeCounts {
  rows: number;
  unchanged: number;
  changed: number;
  quantity_up: number;
  quantity_down: number;
  quantity_to_zero: number;
  price_changed: number;
  not_in_store: number;
}

/** What comparing a file with the store found: the counts, and the lines a changed-only push sends. */
export interface ChangePlan {
  counts: ChangeCounts;
  /** Lines of the changed rows, ascending (file order). */
  changedLines: number[];
  /** Lines of the rows whose SKU the store does not have, ascending. */
  unknownLines: number[];
  /** The live values of every changed SKU, in file order: pushed back, they undo the push. */
  before: LiveStock[];
  /** The largest changes (LARGEST_SHOWN of them, largestChanges' order): what a push's question shows. */
  largest: RowChange[];
}

/** What a comparison keeps beyond the counts and lines. */
export interface CompareOptions {
  /** Each changed SKU's live values (`before`), for a backup; default true. */
  keepBefore?: boolean;
}

/** How many of the largest changes a push's question shows. */
const LARGEST_SHOWN = 10;

/**
 * Orders changes by size, largest first: zeroings (a SKU off every channel) first, by the
 * quantity they take away; then quantity changes by how many units move; then price changes by
 * how far the price moves, as a share of the old one. Ties keep file order.
 */
export function compareBySize(a: RowChange, b: RowChange): number {
  const rank = (change: RowChange) => (change.quantity === 'to_zero' ? 0 : change.quantity ? 1 : 2);
  return rank(a) - rank(b) || changeSize(b) - changeSize(a) || a.line - b.line;
}

function changeSize(change: RowChange): number {
  if (change.quantity) return Math.abs((change.quantity_after ?? 0) - (change.quantity_before ?? 0));
  const before = Number(change.price_before);
  const after = Number(change.price_after);
  if (!Number.isFinite(before) || !Number.isFinite(after)) return 0;
  return before === 0 ? Number.POSITIVE_INFINITY : Math.abs(after - before) / before;
}

/** Keeps the `limit` largest of the changes it is shown (compareBySize), in a few entries whatever the file's size. */
export class LargestChanges {
  private readonly kept: RowChange[] = [];

  constructor(private readonly limit = LARGEST_SHOWN) {}

  add(change: RowChange): void {
    if (change.status !== 'changed') return;
    const last = this.kept[this.kept.length - 1];
    if (this.kept.length >= this.limit && last && compareBySize(change, last) >= 0) return;
    this.kept.push(change);
    this.kept.sort(compareBySize);
    if (this.kept.length > this.limit) this.kept.pop();
  }

  /** The largest, largest first. */
  get changes(): RowChange[] {
    return [...this.kept];
  }
}

/**
 * Compares every row of the checked file with the live values; `onChange` hears of each
 * row that differs (or whose SKU the store lacks), in file order.
 */
export async function compareWithStore(
  file: CheckedFile,
  live: LiveIndex,
  onChange?: (change: RowChange) => void,
  { keepBefore = true }: CompareOptions = {},
): Promise<ChangePlan> {
  const counts: ChangeCounts = {
    rows: 0,
    unchanged: 0,
    changed: 0,
    quantity_up: 0,
    quantity_down: 0,
    quantity_to_zero: 0,
    price_changed: 0,
    not_in_store: 0,
  };
  const plan: ChangePlan = { counts, changedLines: [], unknownLines: [], before: [], largest: [] };
  const largest = new LargestChanges();
  // Batches, not rows: one await per thousand rows keeps a big file's pass fast.
  for await (const rows of inventoryBatches(file, 1000)) {
    for (const row of rows) {
      counts.rows++;
      const current = live.get(row.sku);
      const change = compareRow(row, current);
      if (!change) {
        counts.unchanged++;
        continue;
      }
      if (change.status === 'not_in_store') {
        counts.not_in_store++;
        plan.unknownLines.push(row.line);
      } else {
        counts.changed++;
        if (change.quantity) counts[`quantity_${change.quantity}`]++;
        if (change.price_after !== undefined) counts.price_changed++;
        plan.changedLines.push(row.line);
        if (keepBefore)
          plan.before.push({
            sku: row.sku,
            quantity: current?.quantity ?? null,
            price: current?.price ?? null,
          });
        largest.add(change);
      }
      onChange?.(change);
    }
  }
  plan.largest = largest.changes;
  return plan;
}

/** How one row differs from its SKU's live values; undefined when a push would change nothing. */
export function compareRow(
  row: InventoryRow,
  current: { quantity: number | null; price: string | null } | undefined,
): RowChange | undefined {
  if (!current) return { line: row.line, sku: row.sku, status: 'not_in_store' };
  const change: RowChange = { line: row.line, sku: row.sku, status: 'changed' };
  if (row.quantity !== undefined && row.quantity !== current.quantity) {
    change.quantity = quantityMove(current.quantity, row.quantity);
    change.quantity_before = current.quantity;
    change.quantity_after = row.quantity;
  }
  if (row.price !== undefined && !samePrice(row.price, current.price)) {
    change.price_before = current.price;
    change.price_after = row.price;
  }
  return change.quantity || change.price_after !== undefined ? change : undefined;
}

function quantityMove(before: number | null, after: number): QuantityMove {
  if (after === 0) return 'to_zero';
  return before === null || after > before ? 'up' : 'down';
}

/**
 * Prices are decimal strings: "12.5" and "12.50" are the same amount, so a push of one over
 * the other changes nothing worth a unit of quota. A value that is not a plain decimal
 * compares as text.
 */
export function samePrice(a: string, b: string | null): boolean {
  if (b === null) return false;
  return canonicalDecimal(a) === canonicalDecimal(b);
}

function canonicalDecimal(text: string): string {
  const match = /^([0-9]+)(?:\.([0-9]+))?$/.exec(text.trim());
  if (!match) return text;
  const whole = match[1].replace(/^0+(?=\d)/, '');
  const fraction = (match[2] ?? '').replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : whole;
}

/** The counts with what a push of only the changes, and a full push, would spend. */
export interface DiffSummary extends ChangeCounts {
  requests: number;
  write_quota: number;
  full_push_requests: number;
}

/** What `inventory diff` sums up: the counts, and the requests of a changed-only and a full push in batches of `batchSize`. */
export function diffSummary(counts: ChangeCounts, batchSize: number): DiffSummary {
  const requests = Math.ceil(counts.changed / batchSize);
  return {
    ...counts,
    requests,
    write_quota: requests,
    full_push_requests: Math.ceil(counts.rows / batchSize),
  };
}
