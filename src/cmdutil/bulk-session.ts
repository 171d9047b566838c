/**
 * One bulk run's bookkeeping, inside the bulk frame (./bulk-command.ts): progress, the --report
 * file, the tally, a clean stop on quota or signal, and the closing summary and exit code
 * (README, Output; README, Exit codes).
 */
import {
  type BulkRunOptions,
  type BulkSummary,
  FAILURES_SHOWN,
  type ItemOutcome,
  outcomeLine,
  RunStopped,
  Tally,
} from '../core/bulk.js';
import { PartialFailure } from '../errors.js';
import type { Progress } from '../output/progress.js';
import type { ReportFile } from '../output/report.js';
import { capped, plural } from '../words.js';
import { type Context, STOP_GRACE_MS } from './context.js';

/** Requests of one bulk command in flight at once; the pacer decides when each is actually sent. */
const BULK_CONCURRENCY = 8;

/** What a session is about. */
export interface BulkSessionOptions {
  /** Items planned, for progress. */
  total: number;
  /** Plural noun of the items: "SKUs", "listings". */
  noun: string;
  /** --report path. */
  report?: string;
  live: boolean;
}

/** How the summary ends a run. */
export interface FinishOptions {
  /** "Pushed": the summary line's first word. */
  verb: string;
  /** Extra words after the counts, e.g. "; 3 not reached". */
  note?: string;
  /** Fields added to (or replacing) the JSON summary. */
  json?: Record<string, unknown>;
  /** The warning after a stop: how to run it again and why that is safe. */
  stopNote: () => string | Promise<string>;
}

/** One bulk run: record outcomes as they land, then finish with the summary. */
export class BulkSession {
  readonly tally = new Tally();
  private stopped?: RunStopped;

  private constructor(
    private readonly ctx: Context,
    private readonly options: BulkSessionOptions,
    private readonly progress: Progress,
    private readonly report: ReportFile | undefined,
    private readonly started: number,
  ) {}

  /** Opens the report (failing early on a bad path) and starts progress on a terminal. */
  static async start(ctx: Context, options: BulkSessionOptions): Promise<BulkSession> {
    const report = options.report
      ? await (await import('../output/report.js')).ReportFile.open(options.report)
      : undefined;
    const { startProgress } = await import('../output/progress.js');
    const progress = await startProgress(ctx.io, {
      total: options.total,
      noun: options.noun,
      enabled: ctx.showsProgress,
    });
    return new BulkSession(ctx, options, progress, report, ctx.now());
  }

  get summary(): BulkSummary {
    return this.tally.summary;
  }

  /** True when the run ended early on the quota or a signal. */
  get wasStopped(): boolean {
    return this.stopped !== undefined;
  }

  /** How the use-case runs: the one concurrency of bulk commands, the stop signal and its grace. */
  get runOptions(): BulkRunOptions {
    return { concurrency: BULK_CONCURRENCY, signal: this.ctx.signal, graceMs: STOP_GRACE_MS };
  }

  /** Counts one request sent (retries are the transport's business). */
  countRequest(): void {
    this.tally.summary.requests++;
  }

  /** Tallies, reports and shows progress for outcomes as they land. */
  record(outcomes: readonly ItemOutcome[]): void {
    for (const outcome of outcomes) this.tally.add(outcome);
    this.report?.write(outcomes);
    this.progress.update(this.tally.summary.total);
  }

  /** Rows the report holds beyond the items' own outcomes (a channel's refusals after --wait); not tallied. */
  reportMore(rows: readonly ItemOutcome[]): void {
    this.report?.write(rows);
  }

  /**
   * Runs the work. A stop on the quota or a signal is kept, not thrown, so the summary can
   * print first; any other error closes progress and report and propagates. The report stays
   * open until finish(), for rows that come after the items (reportMore).
   */
  async run(work: () => Promise<void>): Promise<void> {
    try {
      await work();
    } catch (error) {
      if (!(error instanceof RunStopped)) {
        await this.report?.close();
        throw error;
      }
      this.stopped = error;
    } finally {
      this.progress.stop();
      this.tally.summary.seconds = (this.ctx.now() - this.started) / 1000;
    }
  }

  /**
   * Closes the report and prints the summary (stderr, or stdout as JSON with --json); after a
   * stop, warns how to run it again and throws the stop's own error (exit 5, 130, 143; README,
   * Exit codes).
   */
  async finish(options: FinishOptions): Promise<void> {
    await this.report?.close();
    const { simulatedNote, summaryLine } = await import('../output/summary.js');
    const summary = { ...this.tally.summary, ...options.json } as BulkSummary;
    if (this.ctx.wantsJson) await this.ctx.printer.item(summary);
    else {
      const note = `${options.note ?? ''}${simulatedNote(this.options.live)}`;
      this.ctx.messages.info(`${options.verb} ${summaryLine(summary, this.options.noun)}${note}`);
    }
    if (this.stopped) {
      this.ctx.messages.warn(await options.stopNote());
      throw this.stopped.reason;
    }
  }

  /** PartialFailure (exit 3) when any item failed, naming the first ones by line. */
  throwIfFailed(): void {
    const { failed } = this.tally.summary;
    if (failed === 0) return;
    const where = this.options.report
      ? `; see ${this.options.report}`
      : '; run with --report OUT.csv to list them all';
    const noun = plural(failed, this.options.noun.replace(/s$/, ''), this.options.noun);
    const lines = [...this.tally.firstFailures].sort((a, b) => a.line - b.line).map(outcomeLine);
    throw new PartialFailure(`${failed} ${noun} failed${where}`, capped(lines, FAILURES_SHOWN, failed));
  }
}
