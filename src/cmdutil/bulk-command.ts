/**
 * The one frame of the bulk commands (inventory push, products upsert, listings publish --file,
 * listings retry, listings update --error-code, orders fulfill --file). A command checks its input, then states what it will
 * do as a BulkPlan; runBulk runs every plan the same way: the dry run, or the checks that need
 * the service, the live-key confirmation, the session (progress, the record, clean stop),
 * the work, what the work started (--wait), the report, the summary and the exit code.
 */
import type { ApiClient } from '../client/client.js';
import type { BulkLedger, ItemRef } from '../core/outcomes.js';
import type { ReportRow } from '../output/report.js';
import type { BulkSession, SessionDeps } from './bulk-session.js';
import type { Deps } from './deps.js';

/** What running a plan uses of the run: a session's, the confirmation's, and the command line to run it again. */
export type BulkDeps = SessionDeps & Pick<Deps, 'globals' | 'prompts' | 'argv'>;

/** What a dry run shows: the plan as data (for --json), and for people a sentence and the first items. */
export interface DryRun {
  plan: Record<string, unknown>;
  /** "10 SKUs would be pushed in 1 request (1 unit of daily write quota)": what would happen. */
  what: string;
  /** "First rows", over `first`. */
  heading: string;
  first: string[];
  /**
   * Every input item's verdict (`would_send`, `would_skip`, `would_fail`, with code and message),
   * in input order: what --report holds for a dry run, and what the live run then does.
   */
  rows?: Iterable<ReportRow> | AsyncIterable<ReportRow>;
}

/** How many items a dry run would send, skip and fail: what its plan says beside the verdicts. */
export interface VerdictCounts {
  would_send: number;
  would_skip: number;
  would_fail: number;
}

/**
 * Writes a dry run's verdicts to its --report file (a row per input item, in input order), or
 * only reads them through without one; returns how many have each verdict.
 */
export async function writeDryReport(
  path: string | undefined,
  rows: Iterable<ReportRow> | AsyncIterable<ReportRow>,
): Promise<VerdictCounts> {
  const counts: VerdictCounts = { would_send: 0, would_skip: 0, would_fail: 0 };
  async function* counted(): AsyncGenerator<ReportRow> {
    for await (const row of rows) {
      if (row.status in counts) counts[row.status as keyof VerdictCounts]++;
      yield row;
    }
  }
  if (path === undefined) for await (const _ of counted());
  else {
    const { writeReport } = await import('../output/report.js');
    await writeReport(path, counted());
  }
  return counts;
}

/** What a bulk command will do, as the frame runs it. */
export interface BulkPlan {
  /** Plural noun of the items: "SKUs", "listings". */
  noun: string;
  /** Items in the input: every one ends with an outcome, sent or not. */
  total: number;
  /**
   * The input's items in order (`total` of them), each with its line and key: the report is
   * written from the record once the run ends, naming the items as this reads them again.
   */
  items: () => Iterable<ItemRef> | AsyncIterable<ItemRef>;
  /** --report path. */
  report?: string;
  /** The input file as named on the command line, when the items come from one (CI annotations point at it). */
  file?: string;
  /** What --dry-run shows instead of sending (a function for a dry run of its own shape). */
  dryRun: DryRun | (() => Promise<void>);
  /** Checks that need the service, before the question (the accounts a file names exist). */
  prepare?: (client: ApiClient) => Promise<void> | void;
  /**
   * What the run sends and spends, said before a live key's run and asked on a terminal:
   * "Push 200 SKUs in 2 requests with a LIVE key (2 units of daily write quota)". Undefined
   * when the run sends nothing (a changed-only push where nothing differs): nothing to ask.
   */
  confirmation?: string;
  /** Lines shown above the question when it is asked (a push's largest changes). */
  details?: readonly string[];
  /** What a "no" cancels: "push canceled; nothing was sent". */
  action: string;
  /** Sends every item, recording each outcome in the session (items never sent included). */
  send: (session: BulkSession, client: ApiClient) => Promise<void>;
  /** The summary's first word: "Pushed". */
  verb: string;
  /**
   * Unless the run stopped: follows what the items started (--wait) and revises each item's
   * outcome to its final state (session.revise), before the report and the summary.
   */
  follow?: (session: BulkSession) => Promise<FollowUp | undefined>;
  /** Fields of the JSON summary beyond the counts, read from the run's record. */
  json?: (record: BulkLedger) => Record<string, unknown>;
  /** After a stop: how to run it again and why that is safe (default: the same command line). */
  stopNote?: () => string | Promise<string>;
  /** After the command that runs it again: why that is safe. */
  rerunNote?: string;
  /** A hint shown on a terminal after a run that ended well. */
  nextStep?: string;
}

/** What following the work learned: summary fields, and how it ends the run. */
export interface FollowUp {
  json?: Record<string, unknown>;
  /** Ends the run as the follow did (exit 3 or 8), or says all went through. */
  end: () => void;
}

/** Runs a bulk plan: dry run, or confirmation, the work, its follow-up, summary and exit. */
export async function runBulk(ctx: BulkDeps, plan: BulkPlan, flags: { dryRun?: boolean }): Promise<void> {
  if (flags.dryRun)
    return typeof plan.dryRun === 'function' ? plan.dryRun() : showDryRun(ctx, plan.dryRun, plan.report);
  const client = await ctx.client();
  await plan.prepare?.(client);
  const { confirmLiveBulk } = await import('./confirm.js');
  if (plan.confirmation && client.live) {
    const confirmation = await withQuotaSpent(plan.confirmation, client);
    await confirmLiveBulk(ctx, client.live, confirmation, plan.action, plan.details);
  }
  const { BulkSession } = await import('./bulk-session.js');
  const session = await BulkSession.start(ctx, {
    total: plan.total,
    noun: plan.noun,
    report: plan.report,
    items: plan.items,
    live: client.live,
    argv: ctx.argv,
    file: plan.file,
  });
  await session.run(() => plan.send(session, client));
  // What the work started comes before the summary, so that the report and the JSON summary hold it.
  let followUp: FollowUp | undefined;
  let followError: unknown;
  if (plan.follow && !session.wasStopped) {
    try {
      followUp = await plan.follow(session);
    } catch (error) {
      followError = error;
    }
  }
  await session.finish({
    verb: plan.verb,
    json: { ...plan.json?.(session.ledger), ...followUp?.json },
    stopNote: () => plan.stopNote?.() ?? defaultStopNote(ctx, plan.rerunNote),
  });
  if (followError) throw followError;
  followUp?.end();
  session.throwIfFailed();
  if (plan.nextStep && ctx.io.stderrIsTTY) ctx.io.messages.info(plan.nextStep);
}

/**
 * Prints a dry run: what would happen (with what svc has spent of today's write quota, as a
 * live plan says), how many items it would send, skip and fail when it judged each, and the
 * first items on stderr, the plan as data on stdout; writes the verdicts to `report` when there
 * is one. A dry run exits 0 whatever it predicts: nothing was sent, so nothing failed.
 */
export async function showDryRun(
  ctx: Pick<Deps, 'io' | 'client'>,
  dryRun: DryRun,
  report?: string,
): Promise<void> {
  const counts = dryRun.rows && (await writeDryReport(report, dryRun.rows));
  const quota = await quotaSpentNote(ctx, dryRun.what);
  // A plan that counts its verdicts itself (fulfil's) says them already.
  const tell = counts && dryRun.plan.would_send === undefined;
  const what = tell ? `${quota.sentence}; ${verdictWords(counts)}` : quota.sentence;
  const plan = { ...dryRun.plan, ...(tell ? counts : {}), ...quota.fields };
  const { showVerdict } = await import('./verdict.js');
  await showVerdict(
    ctx,
    plan,
    [
      `Dry run: ${what}. Nothing was sent.`,
      `${dryRun.heading}:`,
      ...dryRun.first.map((line) => `  ${line}`),
    ].join('\n'),
  );
}

/** "2 would be sent, 1 skipped, 1 would fail". */
function verdictWords(counts: VerdictCounts): string {
  const n = (value: number) => value.toLocaleString('en-US');
  return `${n(counts.would_send)} would be sent, ${n(counts.would_skip)} skipped, ${n(counts.would_fail)} would fail`;
}

/**
 * A plan's sentence with what svc has spent of today's write quota on the key, as every plan
 * says it (dry runs and the live question): "… (12 units of daily write quota; svc has spent
 * 9,990 today on this key)", and the same as the plan's fields. As it is without a key (a dry
 * run of a file checked offline) or a reading.
 */
export async function quotaSpentNote(
  ctx: Pick<Deps, 'client'>,
  sentence: string,
): Promise<{ sentence: string; fields: Record<string, unknown> }> {
  const client = await ctx.client().catch(() => undefined);
  const reading = await client?.quotaSpent().catch(() => undefined);
  if (!reading) return { sentence, fields: {} };
  const { planNote } = await import('../core/quota/spent.js');
  const note = planNote(reading);
  return {
    sentence: withNote(sentence, note),
    fields: { write_quota_spent_today: reading.spent, write_quota_note: note },
  };
}

/**
 * The plan with what svc counted of the key's quota today: "… (12 units of daily write quota;
 * svc has spent 9,990 today on this key)". The service sends no count, and the quota is the
 * scarcest thing a store has.
 */
async function withQuotaSpent(confirmation: string, client: ApiClient): Promise<string> {
  return (await quotaSpentNote({ client: async () => client }, confirmation)).sentence;
}

/** "… (12 units of daily write quota; svc has spent 9,990 today on this key)": the note inside the cost's parentheses. */
function withNote(sentence: string, note: string): string {
  return sentence.endsWith('write quota)') ? `${sentence.slice(0, -1)}; ${note})` : `${sentence}; ${note}`;
}

async function defaultStopNote(ctx: Pick<Deps, 'argv'>, rerunNote = ''): Promise<string> {
  const { rerunCommand } = await import('./rerun.js');
  return `stopped before the end; \`${rerunCommand(ctx.argv)}\` runs it again${rerunNote}`;
}
