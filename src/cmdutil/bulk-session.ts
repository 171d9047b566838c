/**
 * One bulk run's bookkeeping, inside the bulk frame (./bulk-command.ts): progress, the run's
 * record of every item's outcome (core/outcomes.ts), a clean stop on quota or signal, and what
 * is rendered from the record at the end: the --report file, the summary and the exit code
 * (docs/guide.md, Output; docs/guide.md, Exit codes).
 */
import { FAILURES_SHOWN } from '../core/bulk.js';
import { BulkRun } from '../core/bulk-run.js';
import {
  type BulkLedger,
  type BulkSummary,
  type ItemOutcome,
  type ItemRef,
  outcomeLine,
  WRITE_UNCONFIRMED,
} from '../core/outcomes.js';
import { PartialFailure } from '../errors.js';
import type { Progress } from '../output/progress.js';
import type { ReportRow, RowFile } from '../output/report.js';
import { capped, plural } from '../words.js';
import type { Deps } from './deps.js';

/** What a session uses of the run: the printer and messages, the client's pace, the clock and the stop signal. */
export type SessionDeps = Pick<Deps, 'io' | 'client' | 'now' | 'signal'>;

/** What a session is about. */
export interface BulkSessionOptions {
  /** Items in the input: every one ends with an outcome. */
  total: number;
  /** Plural noun of the items: "SKUs", "listings". */
  noun: string;
  /** --report path. */
  report?: string;
  /** The input's items in order, read again for the report's lines and keys. */
  items: () => Iterable<ItemRef> | AsyncIterable<ItemRef>;
  live: boolean;
  /** The command line, for CI's annotations and step summary. */
  argv?: readonly string[];
  /** The input file as named, when the items come from one: CI's annotations point at its lines. */
  file?: string;
}

/** How the summary ends a run. */
export interface FinishOptions {
  /** "Pushed": the summary line's first word. */
  verb: string;
  /** Fields added to the JSON summary. */
  json?: Record<string, unknown>;
  /** The warning after a stop: how to run it again and why that is safe. */
  stopNote: () => string | Promise<string>;
}

/**
 * One bulk run: the record the library's runs keep too (core/bulk-run.ts), with progress as
 * outcomes land, then the report and the summary.
 */
export class BulkSession extends BulkRun {
  private seconds = 0;

  private constructor(
    private readonly ctx: SessionDeps,
    private readonly options: BulkSessionOptions,
    private readonly progress: Progress,
    private report: OutcomeReport | undefined,
    private readonly started: number,
  ) {
    super(options.total, ctx, report?.spool, ({ settled, requests }) => progress.update(settled, requests));
  }

  /** Opens the report (failing early on a bad path) and starts progress on a terminal. */
  static async start(ctx: SessionDeps, options: BulkSessionOptions): Promise<BulkSession> {
    const report = options.report ? await OutcomeReport.open(options.report) : undefined;
    const { startProgress } = await import('../output/progress.js');
    const { paceReader } = await import('./pace-reader.js');
    const progress = await startProgress(ctx.io, {
      ...ctx.io.progress,
      total: options.total,
      noun: options.noun,
      // The ETA comes from the pace the rate limit sets (docs/guide.md, Output).
      pace: paceReader(await ctx.client(), ctx.now),
    });
    return new BulkSession(ctx, options, progress, report, ctx.now());
  }

  /** The summary's figures, read from the record. */
  get summary(): BulkSummary {
    return this.ledger.summary(this.seconds);
  }

  /**
   * Runs the work. A stop on the quota or a signal is kept, not thrown, so the summary can
   * print first; any other error still writes the report (every item settled) and propagates.
   */
  override async run(work: () => Promise<void>): Promise<void> {
    try {
      await super.run(work);
    } catch (error) {
      this.progress.stop();
      // The run's own failure comes first; a report that could not be written is said too.
      await this.writeReport().catch((unwritten: unknown) =>
        this.ctx.io.messages.warn((unwritten as Error).message),
      );
      throw error;
    } finally {
      this.progress.stop();
      this.seconds = (this.ctx.now() - this.started) / 1000;
    }
  }

  /**
   * Writes the report and prints the summary (stderr, or stdout as JSON with --json), both from
   * the record; after a stop, warns how to run it again and throws the stop's own error (exit
   * 5, 130, 143; docs/guide.md, Exit codes).
   */
  async finish(options: FinishOptions): Promise<void> {
    // A report cut short ends the run with exit 1, after the summary (which the record still gives).
    const unwritten = await this.writeReport().then(
      () => undefined,
      (error: unknown) => error,
    );
    const { simulatedNote, summaryLine } = await import('../output/summary.js');
    const summary = this.summary;
    if (this.ctx.io.wantsJson) await this.ctx.io.printer.item({ ...summary, ...options.json });
    // The totals a person reads are said in every output mode, JSON on stdout or not.
    const figures = {
      ...summary,
      taken: this.ledger.sentAndTaken,
      created: this.ledger.count('created'),
      unfixed: this.ledger.count('unfixed'),
    };
    this.ctx.io.messages.info(
      `${summaryLine(figures, this.options.noun, options.verb)}${simulatedNote(this.options.live)}`,
    );
    const stopNote = this.wasStopped ? await options.stopNote() : undefined;
    if (this.ctx.io.gitHubActions) {
      const { bulkRunToGitHub } = await import('./ci-report.js');
      bulkRunToGitHub(this.ctx, {
        ...this.options,
        argv: this.options.argv ?? [],
        ledger: this.ledger,
        summary,
        stopNote,
      });
    }
    if (this.wasStopped) this.ctx.io.messages.warn(stopNote ?? '');
    if (unwritten) throw unwritten;
    if (this.stopReason) throw this.stopReason;
  }

  /** PartialFailure (exit 3) when any item failed, naming the first ones by line. */
  throwIfFailed(): void {
    const failed = this.ledger.count('failed');
    if (failed === 0) return;
    const where = this.options.report
      ? `; see ${this.options.report}`
      : '; run with --report OUT.csv to list them all';
    const noun = plural(failed, this.options.noun.replace(/s$/, ''), this.options.noun);
    const first = this.ledger.failures(FAILURES_SHOWN);
    // An unconfirmed write is not a plain failure: running it again blindly could write it twice.
    const unconfirmed = first.filter((outcome) => outcome.code === WRITE_UNCONFIRMED).length;
    const check = unconfirmed > 0 ? ` (${WRITE_UNCONFIRMED}: check the store before running them again)` : '';
    throw new PartialFailure(
      `${failed} ${noun} failed${check}${where}`,
      capped(first.map(outcomeLine), FAILURES_SHOWN, failed),
    );
  }

  /** The report, rendered from the record: a row per input item, in input order. Written once. */
  private async writeReport(): Promise<void> {
    this.ledger.close();
    if (!this.report) return;
    const report = this.report;
    this.report = undefined;
    await report.finish(this.ledger, this.options.items);
  }
}

/**
 * A --report as a run fills it: each outcome goes to a spool as soon as the record knows it in
 * input order (one line of JSON each, in a private temporary file), and the report is written
 * from the spool once the run ends, with the outcomes that replaced earlier ones (a follow's
 * verdicts) in their place. Nothing of it is held in memory.
 */
class OutcomeReport {
  private constructor(
    private readonly report: RowFile<ReportRow>,
    readonly spool: RowFile<ItemOutcome>,
    private readonly spoolPath: string,
    private readonly removeSpool: () => void,
  ) {}

  /** Opens the report (failing early, exit 2, on a path that cannot be written) and the spool. */
  static async open(path: string): Promise<OutcomeReport> {
    const { openReport, RowFile } = await import('../output/report.js');
    const { mkdtempSync, rmSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const { default: whenExit } = await import('../config/exit-hooks.js');
    const report = openReport(path);
    const dir = mkdtempSync(join(tmpdir(), 'svc-outcomes-'));
    const remove = () => rmSync(dir, { recursive: true, force: true });
    const unhook = whenExit(remove);
    const spoolPath = join(dir, 'outcomes.ndjson');
    const spool = RowFile.open<ItemOutcome>(spoolPath, SPOOL_FORMAT, 0o600, 'the outcomes spool');
    return new OutcomeReport(report, spool, spoolPath, () => {
      remove();
      unhook();
    });
  }

  /** Writes the report from the spool, a row per input item in input order, and closes it. */
  async finish(ledger: BulkLedger, items: BulkSessionOptions['items']): Promise<void> {
    try {
      await ledger.finish(items);
      this.spool.close();
      const { createReadStream } = await import('node:fs');
      const { createInterface } = await import('node:readline');
      const lines = createInterface({
        input: createReadStream(this.spoolPath),
        crlfDelay: Number.POSITIVE_INFINITY,
      });
      for await (const line of lines) {
        const { line: at, key, status, code, message } = ledger.final(JSON.parse(line) as ItemOutcome);
        this.report.write({ line: at, key, status, code, message });
      }
      this.report.close();
    } catch (error) {
      this.spool.abandon();
      this.report.abandon();
      throw error;
    } finally {
      this.removeSpool();
    }
  }
}

/** The spool's rows: one outcome a line, as JSON. */
const SPOOL_FORMAT = {
  head: '',
  row: ({ index, line, key, status, code, message }: ItemOutcome) =>
    `${JSON.stringify({ index, line, key, status, code, message })}\n`,
  tail: '',
};
