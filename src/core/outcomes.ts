/**
 * The one record of a bulk run: every input item's final outcome, kept by its place in the
 * input. The human summary, the JSON summary and --report are all read from it, so they agree
 * (docs/guide.md, Output): `total` is the number of input items, every item has exactly one final
 * status, and the counts add up to `total`.
 */
import { ERROR_CODES } from '../contract/contract.js';
import { ApiError, AuthError, QuotaError, RateLimitError } from '../errors.js';

/**
 * Every final status an item can have, as the report's `status` column says it. `created`
 * (upsert, publish), `listed` and `pending` (a resync followed with --wait) count as
 * `updated` in the summary. `unfixed` (a retry's listing whose cause looks unchanged, not sent)
 * has a count of its own in the summaries of the commands that have such items.
 */
export type ItemStatus =
  | 'updated'
  | 'created'
  | 'listed'
  | 'pending'
  | 'unchanged'
  | 'failed'
  | 'skipped'
  | 'not_sent'
  | 'simulated'
  | 'unfixed';

/** One input item's outcome, as the summary counts it and the report lists it. */
export interface ItemOutcome {
  /** The item's place in the input, from 0. */
  index: number;
  /** Line in the input file; absent for items that come from no file (the report leaves it empty). */
  line?: number;
  /** The item's key: a SKU, an order id, a listing id. */
  key: string;
  status: ItemStatus;
  code?: string | null;
  message?: string | null;
  /**
   * Settled without a request of this run: an earlier run confirmed it (`skipped`), or the plan
   * left it out (a changed-only push's `unchanged` rows). Such items are not "sent" in the summary.
   */
  unsent?: boolean;
}

/** The bulk summary (docs/guide.md, Output); with --json it is printed as it is, plus a command's own fields. */
export interface BulkSummary {
  total: number;
  updated: number;
  unchanged: number;
  failed: number;
  skipped: number;
  not_sent: number;
  simulated: number;
  requests: number;
  seconds: number;
}

/** The summary's status counts, which add up to `total`. */
type CountName = 'updated' | 'unchanged' | 'failed' | 'skipped' | 'not_sent' | 'simulated';

// `unfixed` is counted apart: only a retry has such items, and its summary adds the count.
const COUNTED_AS: Record<ItemStatus, CountName | undefined> = {
  updated: 'updated',
  created: 'updated',
  listed: 'updated',
  pending: 'updated',
  unchanged: 'unchanged',
  failed: 'failed',
  skipped: 'skipped',
  not_sent: 'not_sent',
  simulated: 'simulated',
  unfixed: undefined,
};

/** Statuses of items the service took when this run sent them: what a summary's verb counts. */
const TAKEN = new Set<ItemStatus>(['updated', 'created', 'listed', 'pending', 'unchanged', 'simulated']);

/** Code of an item whose write may or may not have been applied: nothing this run read could tell. */
export const WRITE_UNCONFIRMED = 'write_unconfirmed';

/** Status, code and message: what an outcome says beyond the item it is about. */
export type Verdict = Pick<ItemOutcome, 'status' | 'code' | 'message'>;

/** An item the run never sent, because it stopped first. */
export const NOT_REACHED: Verdict = { status: 'not_sent', message: 'not sent: the run stopped before it' };

/** An item in flight when the run stopped, whose answer did not come in time. */
export const NO_ANSWER: Verdict = {
  status: 'failed',
  code: WRITE_UNCONFIRMED,
  message: 'no answer before the run stopped; it may have been applied (a run again settles it)',
};

/**
 * The verdict on the items of a request whose error stopped the run: `not_sent` when the service
 * refused it (nothing was applied), else failed and unconfirmed (it may have been applied).
 */
export function stoppedBy(error: unknown): Verdict {
  if (error instanceof QuotaError)
    return {
      status: 'not_sent',
      code: ERROR_CODES.writeQuotaExceeded,
      message: 'refused: the daily write quota is used up',
    };
  if (error instanceof RateLimitError)
    return { status: 'not_sent', code: ERROR_CODES.rateLimitExceeded, message: `refused: ${error.message}` };
  if (error instanceof AuthError)
    return { status: 'not_sent', code: error.code ?? 'authentication', message: `refused: ${error.message}` };
  if (error instanceof ApiError && error.status < 500)
    return {
      status: 'not_sent',
      code: error.code ?? `http_${error.status}`,
      message: `refused: ${error.message}`,
    };
  const why = error instanceof Error ? error.message : String(error);
  return {
    status: 'failed',
    code: WRITE_UNCONFIRMED,
    message: `no answer (${why}); it may have been applied (a run again settles it)`,
  };
}

/** "line 3: NOT-A-SKU: sku_not_found: No variant has…": one outcome on one line. */
export function outcomeLine(outcome: Pick<ItemOutcome, 'line' | 'key' | 'code' | 'message'>): string {
  const why = [outcome.code, outcome.message].filter(Boolean).join(': ');
  return `${outcome.line ? `line ${outcome.line}: ` : ''}${outcome.key}: ${why}`;
}

/** What names an item in the report: its line in its file (none for items from no file) and key. */
export interface ItemRef {
  line?: number;
  key: string;
}

/** An outcome without the item it is about: what the record keeps per item, shared between items. */
type Kept = Verdict & { unsent?: boolean };

/**
 * Every input item's final outcome, by its place in the input, and the counts read from them.
 * Kept compact, for pushes of a million rows: per item, the number of its verdict in a table of
 * the distinct verdicts (most items share a few); the items themselves (line and key) are read
 * again from the input when the report is written, except those of failures, kept to name them.
 */
export class BulkLedger {
  /** Per item: 0 while unsettled, else 1 + the number of its verdict in `kept`. */
  private readonly verdictOf: Uint32Array;
  private readonly kept: Kept[] = [];
  private readonly keptIds = new Map<string, number>();
  /** Line and key of the failed items, to name them without reading the input again. */
  private readonly failedRefs = new Map<number, ItemRef>();
  private readonly counts: Record<ItemStatus, number> = {
    updated: 0,
    created: 0,
    listed: 0,
    pending: 0,
    unchanged: 0,
    failed: 0,
    skipped: 0,
    not_sent: 0,
    simulated: 0,
    unfixed: 0,
  };
  /** 1 for an item the service took when this run sent it (kept when a follow revises its status). */
  private readonly taken: Uint8Array;
  private takenCount = 0;
  private settledCount = 0;
  private closed = false;
  /** Requests sent (retries are the transport's business). */
  requests = 0;

  constructor(readonly total: number) {
    this.verdictOf = new Uint32Array(total);
    this.taken = new Uint8Array(total);
  }

  /** Items with an outcome so far. */
  get settled(): number {
    return this.settledCount;
  }

  /** Items the service took when this run sent them: what the summary's verb counts. */
  get sentAndTaken(): number {
    return this.takenCount;
  }

  /** Records an item's outcome as its send (or the stop) left it, replacing any earlier one. */
  settle(outcome: ItemOutcome): void {
    this.place(outcome, TAKEN.has(outcome.status) && !outcome.unsent);
  }

  /**
   * Records what became of an item after its send (a followed operation's verdict): its final
   * status, while the summary still counts it as sent and taken.
   */
  revise(outcome: ItemOutcome): void {
    this.place(outcome, this.taken[this.checkedIndex(outcome.index)] === 1);
  }

  /** The status of one item, if settled. */
  statusOf(index: number): ItemStatus | undefined {
    const id = this.verdictOf[this.checkedIndex(index)];
    return id === 0 ? undefined : this.kept[id - 1].status;
  }

  /** How many items have `status`. */
  count(status: ItemStatus): number {
    return this.counts[status];
  }

  /** Ends the record: outcomes that land later (a request past the stop's grace) change nothing said. */
  close(): void {
    this.closed = true;
  }

  /** The summary's counts, read from the outcomes. */
  summary(seconds: number): BulkSummary {
    const summary: BulkSummary = {
      total: this.total,
      updated: 0,
      unchanged: 0,
      failed: 0,
      skipped: 0,
      not_sent: 0,
      simulated: 0,
      requests: this.requests,
      seconds,
    };
    for (const status of Object.keys(this.counts) as ItemStatus[]) {
      const name = COUNTED_AS[status];
      if (name) summary[name] += this.counts[status];
    }
    // An item nothing settled (a stop before the run reached it) was applied by no run.
    summary.not_sent += this.total - this.settledCount;
    return summary;
  }

  /**
   * Every item's outcome in input order, `items` naming them (the input read again, in its
   * order); an item nothing settled is `not_sent`.
   */
  async *rows(items: Iterable<ItemRef> | AsyncIterable<ItemRef>): AsyncGenerator<ItemOutcome> {
    let index = 0;
    for await (const { line, key } of items) {
      if (index >= this.total) break;
      const id = this.verdictOf[index];
      const kept: Kept = id === 0 ? NOT_REACHED : this.kept[id - 1];
      const { unsent: _unsent, ...verdict } = kept;
      yield { index, line, key, ...verdict };
      index++;
    }
  }

  /** The first `limit` failed items, in input order. */
  failures(limit: number): ItemOutcome[] {
    return [...this.failedRefs.entries()]
      .sort(([a], [b]) => a - b)
      .slice(0, limit)
      .map(([index, ref]) => {
        const { unsent: _unsent, ...verdict } = this.kept[this.verdictOf[index] - 1];
        return { index, ...ref, ...verdict };
      });
  }

  private place(outcome: ItemOutcome, taken: boolean): void {
    if (this.closed) return;
    const index = this.checkedIndex(outcome.index);
    const before = this.verdictOf[index];
    if (before !== 0) this.counts[this.kept[before - 1].status]--;
    else this.settledCount++;
    this.verdictOf[index] = this.keep(outcome) + 1;
    this.counts[outcome.status]++;
    if (outcome.status === 'failed') this.failedRefs.set(index, { line: outcome.line, key: outcome.key });
    else this.failedRefs.delete(index);
    const bit = taken ? 1 : 0;
    this.takenCount += bit - this.taken[index];
    this.taken[index] = bit;
  }

  /** The number of the outcome's verdict in the table, added when new. */
  private keep({ status, code, message, unsent }: ItemOutcome): number {
    const name = `${status}\u0000${code ?? ''}\u0000${message ?? ''}\u0000${unsent ? 1 : 0}`;
    let id = this.keptIds.get(name);
    if (id === undefined) {
      id = this.kept.length;
      this.kept.push({ status, code: code ?? undefined, message: message ?? undefined, unsent });
      this.keptIds.set(name, id);
    }
    return id;
  }

  private checkedIndex(index: number): number {
    if (!Number.isInteger(index) || index < 0 || index >= this.total)
      throw new Error(`outcome of item ${index} outside the input's ${this.total} items`);
    return index;
  }
}
