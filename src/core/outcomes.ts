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

/** Where a record sends each item's outcome, in input order, once it is known (the run's spool). */
export interface OutcomeSink {
  write(outcome: ItemOutcome): void;
}

/** How many failed items the record keeps to name them (the first ones, in input order). */
const FAILURES_KEPT = 10;

/** The statuses by number, for one byte per item; 0 is "not settled yet". */
const STATUS_CODES: readonly ItemStatus[] = [
  'updated',
  'created',
  'listed',
  'pending',
  'unchanged',
  'failed',
  'skipped',
  'not_sent',
  'simulated',
  'unfixed',
];
const CODE_OF = new Map(STATUS_CODES.map((status, at) => [status, at + 1]));
/** The bit of an item's byte that says the service took it when this run sent it. */
const TAKEN_BIT = 0x10;
const STATUS_BITS = 0x0f;

/**
 * Every input item's final outcome, and the counts read from them, in memory that does not
 * grow with the items settled: per item one byte (its status, and whether this run's send was
 * taken), and the outcomes themselves go to `sink` in input order as soon as every item before
 * them is settled (the few settled ahead of a gap wait in a window as wide as the work in
 * flight). An outcome that replaces one already sent on (a follow's verdict, a later answer)
 * is kept apart, as a revision the report applies; so are the first failures, to name them.
 */
export class BulkLedger {
  /** Per item: its status's number (0 while unsettled), and TAKEN_BIT. */
  private readonly state: Uint8Array;
  /** Outcomes settled ahead of an unsettled item, by index: sent on once the gap closes. */
  private readonly window = new Map<number, ItemOutcome>();
  /** The next item to send on to the sink. */
  private next = 0;
  /** Outcomes that replaced one already sent on, by index. */
  private readonly replaced = new Map<number, ItemOutcome>();
  /** The first failed items in input order (at most FAILURES_KEPT), by index. */
  private readonly firstFailures = new Map<number, ItemOutcome>();
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
  private takenCount = 0;
  private settledCount = 0;
  private closed = false;
  /** Requests sent (retries are the transport's business). */
  requests = 0;

  constructor(
    readonly total: number,
    private readonly sink?: OutcomeSink,
  ) {
    this.state = new Uint8Array(total);
  }

  /** Items with an outcome so far. */
  get settled(): number {
    return this.settledCount;
  }

  /** Outcomes held in memory now (the window and the revisions): what the record costs beyond a byte an item. */
  get held(): number {
    return this.window.size + this.replaced.size;
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
    this.place(outcome, (this.state[this.checkedIndex(outcome.index)] & TAKEN_BIT) !== 0);
  }

  /** The status of one item, if settled. */
  statusOf(index: number): ItemStatus | undefined {
    const code = this.state[this.checkedIndex(index)] & STATUS_BITS;
    return code === 0 ? undefined : STATUS_CODES[code - 1];
  }

  /** How many items have `status`. */
  count(status: ItemStatus): number {
    return this.counts[status];
  }

  /** Ends the record: outcomes that land later (a request past the stop's grace) change nothing said. */
  close(): void {
    this.closed = true;
  }

  /**
   * Sends on every outcome not sent yet, in input order, after the record is closed: an item
   * nothing settled is `not_sent`, named by `items` (the input read again, in its order), which
   * is read only when such an item is left.
   */
  async finish(items: () => Iterable<ItemRef> | AsyncIterable<ItemRef>): Promise<void> {
    this.close();
    this.flush();
    if (!this.sink || this.next >= this.total) return;
    let index = 0;
    for await (const { line, key } of items()) {
      if (index >= this.total) break;
      if (index >= this.next) {
        this.sink?.write(this.window.get(index) ?? { index, line, key, ...NOT_REACHED });
        this.window.delete(index);
      }
      index++;
    }
    this.next = this.total;
  }

  /** The outcome the report shows for an item the sink already had: a later one replaces it. */
  final(outcome: ItemOutcome): ItemOutcome {
    return this.replaced.get(outcome.index) ?? outcome;
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

  /** The first `limit` failed items (at most 10), in input order. */
  failures(limit: number): ItemOutcome[] {
    return [...this.firstFailures.entries()]
      .sort(([a], [b]) => a - b)
      .slice(0, limit)
      .map(([, outcome]) => withoutUnsent(outcome));
  }

  private place(outcome: ItemOutcome, taken: boolean): void {
    if (this.closed) return;
    const index = this.checkedIndex(outcome.index);
    const before = this.state[index];
    const beforeCode = before & STATUS_BITS;
    if (beforeCode !== 0) this.counts[STATUS_CODES[beforeCode - 1]]--;
    else this.settledCount++;
    this.counts[outcome.status]++;
    this.takenCount += (taken ? 1 : 0) - ((before & TAKEN_BIT) !== 0 ? 1 : 0);
    this.state[index] = (CODE_OF.get(outcome.status) ?? 0) | (taken ? TAKEN_BIT : 0);
    this.noteFailure(index, outcome);
    if (!this.sink) return;
    if (index < this.next) this.replaced.set(index, outcome);
    else {
      this.window.set(index, outcome);
      this.flush();
    }
  }

  /** Sends on the outcomes that no unsettled item stands before. */
  private flush(): void {
    for (let outcome = this.window.get(this.next); outcome; outcome = this.window.get(this.next)) {
      this.window.delete(this.next);
      this.next++;
      this.sink?.write(outcome);
    }
  }

  /** Keeps the failure if it is among the first ones; forgets an item that no longer failed. */
  private noteFailure(index: number, outcome: ItemOutcome): void {
    if (outcome.status !== 'failed') {
      this.firstFailures.delete(index);
      return;
    }
    if (this.firstFailures.size < FAILURES_KEPT || this.firstFailures.has(index)) {
      this.firstFailures.set(index, outcome);
      return;
    }
    const last = Math.max(...this.firstFailures.keys());
    if (index > last) return;
    this.firstFailures.delete(last);
    this.firstFailures.set(index, outcome);
  }

  private checkedIndex(index: number): number {
    if (!Number.isInteger(index) || index < 0 || index >= this.total)
      throw new Error(`outcome of item ${index} outside the input's ${this.total} items`);
    return index;
  }
}

/** The outcome as the report and the messages show it. */
function withoutUnsent(outcome: ItemOutcome): ItemOutcome {
  const { unsent: _unsent, ...shown } = outcome;
  return shown;
}
