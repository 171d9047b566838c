/**
 * One bulk run's record as it is kept, with no printing: the ledger every item's outcome goes
 * to (./outcomes.ts), the count of requests, the one pace of bulk work, and a stop on the quota,
 * the rate limit or a signal kept rather than thrown. The CLI's session (progress, report,
 * summary) is built on it, and the library's bulk runs hand back what it records.
 */
import { STOP_GRACE_MS } from '../client/connection-settings.js';
import { type BulkRunOptions, RunStopped, type StopReason } from './bulk.js';
import { type BulkResult, BulkStopped } from './bulk-stopped.js';
import { BulkLedger, type ItemOutcome, type ItemRef, type OutcomeSink } from './outcomes.js';

export type { BulkResult } from './bulk-stopped.js';

/** Requests of one bulk run in flight at once; the pacer decides when each is actually sent. */
const BULK_CONCURRENCY = 8;

/** How far a run has got: items settled of all, and requests answered. */
export interface BulkProgress {
  settled: number;
  total: number;
  requests: number;
}

/** A bulk run's record: one outcome per input item, and a stop kept for the end. */
export class BulkRun {
  /** Every input item's outcome: the one source of reports, summaries and results. */
  readonly ledger: BulkLedger;
  private stop?: RunStopped;
  /** Requests whose outcomes were recorded (each record() is one answer). */
  private answered = 0;

  constructor(
    total: number,
    private readonly pace: { signal?: AbortSignal },
    sink?: OutcomeSink,
    private readonly onProgress?: (progress: BulkProgress) => void,
  ) {
    this.ledger = new BulkLedger(total, sink);
  }

  /** How the use-case runs: the one concurrency of bulk work, the stop signal and its grace. */
  get runOptions(): BulkRunOptions {
    return { concurrency: BULK_CONCURRENCY, signal: this.pace.signal, graceMs: STOP_GRACE_MS };
  }

  /** True when the run ended early on the quota, the rate limit or a signal. */
  get wasStopped(): boolean {
    return this.stop !== undefined;
  }

  /** Why the run ended early, if it did. */
  get stopReason(): StopReason | undefined {
    return this.stop?.reason;
  }

  /** Counts one request sent (retries are the transport's business). */
  countRequest(): void {
    this.ledger.requests++;
  }

  /** Records the outcomes of one answered request (or of items settled without one) as they land. */
  record(outcomes: readonly ItemOutcome[]): void {
    for (const outcome of outcomes) this.ledger.settle(outcome);
    this.answered += 1;
    this.onProgress?.({ settled: this.ledger.settled, total: this.ledger.total, requests: this.answered });
  }

  /** Records what became of items after their send (a followed operation's verdict): their final state. */
  revise(outcomes: readonly ItemOutcome[]): void {
    for (const outcome of outcomes) this.ledger.revise(outcome);
  }

  /** Runs the work; a stop on the quota, the rate limit or a signal is kept, any other error thrown. */
  async run(work: () => Promise<void>): Promise<void> {
    try {
      await work();
    } catch (error) {
      if (!(error instanceof RunStopped)) throw error;
      this.stop = error;
    }
  }
}

/** What a use case's send needs of the run: its pace and stop, and where each outcome goes. */
export type RunRecord = Pick<BulkRun, 'runOptions' | 'countRequest' | 'record'>;

/** What a recorded run needs: its items (read again for the ones never settled), and the work. */
export interface RecordedRun {
  total: number;
  items: () => Iterable<ItemRef> | AsyncIterable<ItemRef>;
  signal?: AbortSignal;
  onProgress?: (progress: BulkProgress) => void;
  now?: () => number;
  /** Sends every item, recording each outcome in the run (items never sent included). */
  send: (run: BulkRun) => Promise<void>;
  /** Unless the run stopped: what the work started, followed, each item's outcome revised. */
  follow?: (run: BulkRun) => Promise<void>;
}

/**
 * Runs bulk work to its result, the outcomes kept in memory in input order. A stop (quota,
 * rate limit, signal) throws BulkStopped, an SvcError holding the result so far.
 */
export async function recordRun(work: RecordedRun): Promise<BulkResult> {
  const now = work.now ?? Date.now;
  const started = now();
  const outcomes: ItemOutcome[] = [];
  const sink = { write: (outcome: ItemOutcome) => outcomes.push(outcome) };
  const run = new BulkRun(work.total, { signal: work.signal }, sink, work.onProgress);
  await run.run(() => work.send(run));
  if (work.follow && !run.wasStopped) await work.follow(run);
  await run.ledger.finish(work.items);
  const result: BulkResult = {
    totals: {
      ...run.ledger.summary((now() - started) / 1000),
      unfixed: run.ledger.count('unfixed'),
      created: run.ledger.count('created'),
    },
    outcomes: outcomes.map((outcome) => withoutUnsent(run.ledger.final(outcome))),
  };
  const reason = run.stopReason;
  if (reason) throw new BulkStopped(reason, result);
  return result;
}

/** The outcome as results show it. */
function withoutUnsent({ unsent: _unsent, ...shown }: ItemOutcome): ItemOutcome {
  return shown;
}
