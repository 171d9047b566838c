/**
 * What a bulk run hands back (its totals and one outcome per input item), and the error of a
 * run stopped before its end, which carries it. Apart from the runner so that loading the
 * library's entry loads only this.
 */
import { ERROR_CODES } from '../contract/contract.js';
import { FileIncomplete, Interrupted, QuotaError, SvcError } from '../errors.js';
import type { StopReason } from './bulk.js';
import type { BulkSummary, ItemOutcome } from './outcomes.js';

/** The summary of a bulk run, with what a retry holds back (`unfixed`) and what an upsert or publish made (`created`). */
export interface BulkTotals extends BulkSummary {
  unfixed: number;
  created: number;
}

/** What a bulk run did: its totals, and one outcome per input item, in input order. */
export interface BulkResult {
  /**
   * The counts of the outcomes (updated, unchanged, failed, skipped, not_sent, simulated and
   * unfixed add up to `total`; `created` is counted in `updated` too), the requests sent and the
   * seconds taken: the summary `svc` prints.
   */
  totals: BulkTotals;
  /** One final outcome per input item, in input order. */
  outcomes: ItemOutcome[];
}

/**
 * A bulk run stopped before its end by the write quota, the rate limit or a signal: the
 * stop's code, status and exit code, and the result so far (every item's outcome, the ones
 * never sent `not_sent`). An inventory push resumed with `resume: true` sends only the rest.
 */
export class BulkStopped extends SvcError {
  override name = 'BulkStopped';
  override readonly code?: string;
  override readonly status?: number;
  override readonly retryAfterSeconds?: number;

  /** The error that stopped the run: the write quota's, the rate limit's, a signal's. */
  readonly reason: SvcError;

  /** @internal Raised by the bulk runs. */
  constructor(
    reason: StopReason,
    /** What the run did before it stopped. */
    readonly result: BulkResult,
  ) {
    super(reason.message, { cause: reason });
    this.reason = reason;
    this.code = reason.code ?? codeOf(reason);
    this.status =
      reason.status ?? (reason instanceof Interrupted || reason instanceof FileIncomplete ? undefined : 429);
    this.retryAfterSeconds = reason.retryAfterSeconds;
  }

  override get exitCode(): number {
    return this.reason.exitCode;
  }
}

/** A stable code for a stop that carries none of the service's. */
function codeOf(reason: StopReason): string {
  if (reason instanceof Interrupted) return 'interrupted';
  if (reason instanceof FileIncomplete) return 'file_incomplete';
  if (reason instanceof QuotaError) return ERROR_CODES.writeQuotaExceeded;
  return ERROR_CODES.rateLimitExceeded;
}
