/**
 * The frame every bulk command runs in (inventory push, products upsert, listings publish
 * and retry, orders fulfill): progress, the --report file, the tally, a clean stop on quota or signal, and CLI.md's closing summary and exit code.
 */
import { type BulkSummary, type ItemOutcome, RunStopped, Tally } from '../core/bulk.js';
import { PartialFailure } from '../errors.js';
import type { Progress } from '../output/progress.js';
import type { ReportFile } from '../output/report.js';
import type { Context } from './context.js';
import { SIMULATED_NOTE } from './live-key.js';

/** Requests of one bulk command in flight at once; the pacer decides when each is actually sent. */
export const BULK_CONCURRENCY = 4;
export { STOP_GRACE_MS } from './context.js';

/** What a session is about. */
export interface BulkSessionOptions {
  /** Items planned, for progress. */
  total: number;
  /** Plural noun of the items: "SKUs", "listings". */
  noun: string;
  /** --report path. */
  report?: string;
  live: boolean;
  /** After the command that runs it again, when a stop cut the run short: why that is safe. */
  rerunNote?: string;
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
      enabled: !ctx.globals.quiet && ctx.env.CI !== 'true',
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
   * Prints the summary (stderr, or stdout as JSON with --json), then ends the run as CLI.md
   * says: the stop's own error (exit 5, 130, 143) or PartialFailure (exit 3) naming the first
   * failures. `afterStop` runs before a stop is thrown (e.g. to say how to resume).
   */
  async finish(options: {
    verb: string;
    /** Extra words after the counts, e.g. "; 3 not reached". */
    note?: string;
    /** Fields added to (or replacing) the JSON summary. */
    json?: Record<string, unknown>;
    afterStop?: () => void;
    /** When false, the caller still has work (e.g. --wait) before failures end the run. */
    throwOnFailures?: boolean;
  }): Promise<void> {
    await this.report?.close();
    const { summaryLine } = await import('../output/summary.js');
    const summary = { ...this.tally.summary, ...options.json } as BulkSummary;
    if (this.ctx.globals.json) await this.ctx.printer.item(summary);
    else {
      const note = `${options.note ?? ''}${this.options.live ? '' : SIMULATED_NOTE}`;
      this.ctx.messages.info(`${options.verb} ${summaryLine(summary, this.options.noun)}${note}`);
    }
    if (this.stopped) {
      if (options.afterStop) options.afterStop();
      else {
        const { rerunCommand } = await import('./rerun.js');
        this.ctx.messages.warn(
          `stopped before the end; \`${rerunCommand(this.ctx.args)}\` runs it again${this.options.rerunNote ?? ''}`,
        );
      }
      throw this.stopped.reason;
    }
    if (options.throwOnFailures !== false) this.throwIfFailed();
  }

  /** PartialFailure (exit 3) when any item failed, naming the first ones by line. */
  throwIfFailed(): void {
    const { failed } = this.tally.summary;
    if (failed === 0) return;
    const where = this.options.report
      ? `; see ${this.options.report}`
      : '; run with --report OUT.csv to list them all';
    const noun = failed === 1 ? this.options.noun.replace(/s$/, '') : this.options.noun;
    throw new PartialFailure(`${failed} ${noun} failed${where}`, failureDetails(this.tally));
  }
}

/** "line 3: NOT-A-SKU: sku_not_found: No variant has…", the first failures by line. */
function failureDetails(tally: Tally): string[] {
  const lines = [...tally.firstFailures]
    .sort((a, b) => a.line - b.line)
    .map(
      (o) => `${o.line ? `line ${o.line}: ` : ''}${o.key}: ${[o.code, o.message].filter(Boolean).join(': ')}`,
    );
  const more = tally.summary.failed - lines.length;
  return more > 0 ? [...lines, `… and ${more} more`] : lines;
}
