/**
 * What a bulk run tells GitHub Actions (docs/guide.md, CI): its refused or failed input lines as
 * annotations, its totals as a table in the step summary. Nothing happens elsewhere.
 */
import type { BulkLedger, BulkSummary } from '../core/outcomes.js';
import type { UsageError } from '../errors.js';
import {
  appendStepSummary,
  commandTitle,
  type LineProblem,
  writeAnnotations,
} from '../output/github-actions.js';
import type { Deps } from './deps.js';

/** What the end of a bulk run knows. */
export interface BulkRunFacts {
  argv: readonly string[];
  /** The input file as named on the command line, when the items come from one. */
  file?: string;
  noun: string;
  ledger: BulkLedger;
  summary: BulkSummary;
  report?: string;
  /** After a stop: how to run the rest. */
  stopNote?: string;
}

/** Annotates the failed items of a finished run, and appends its totals to the step summary. */
export function bulkRunToGitHub(ctx: Pick<Deps, 'io'>, facts: BulkRunFacts): void {
  const actions = ctx.io.gitHubActions;
  if (!actions) return;
  const title = commandTitle(facts.argv);
  const failed = facts.ledger.count('failed');
  const failures = facts.ledger.failures(10).map(
    (outcome): LineProblem => ({
      file: facts.file,
      line: outcome.line,
      message: [outcome.key, outcome.code, outcome.message].filter(Boolean).join(': '),
    }),
  );
  writeAnnotations(ctx.io, title, failures, failed, everyOneIn(facts.report));
  const { summary } = facts;
  const counts = (['updated', 'unchanged', 'failed', 'skipped', 'simulated', 'not_sent'] as const)
    .filter((status) => summary[status] > 0)
    .map((status): [string, string] => [status.replace('_', ' '), count(summary[status])]);
  appendStepSummary(actions, title, [
    [facts.noun, count(summary.total)],
    ...counts,
    ['write quota spent', `${count(summary.requests)} units (one per request)`],
    ...(facts.report ? [['report', facts.report] as [string, string]] : []),
    ...(facts.stopNote ? [['stopped', facts.stopNote] as [string, string]] : []),
  ]);
}

/** Annotates the bad lines of an input file refused before anything was sent (exit 2). */
export function refusedInputToGitHub(ctx: Pick<Deps, 'io' | 'argv'>, error: UsageError): void {
  const actions = ctx.io.gitHubActions;
  const problems = error.problems;
  if (!actions || !problems?.length) return;
  const title = commandTitle(ctx.argv);
  const lines = [...problems].sort((a, b) => a.line - b.line);
  const file = error.inputFile;
  writeAnnotations(
    ctx.io,
    title,
    lines.map((problem) => ({ file, line: problem.line, message: problem.message })),
    lines.length,
    everyOneIn(error.reportFile),
  );
  const badLines = new Set(lines.map((problem) => problem.line)).size;
  appendStepSummary(actions, title, [
    ['input', file ?? ''],
    ['bad lines', count(badLines)],
    ['sent', 'nothing (fix the lines and run again)'],
    ...(error.reportFile ? [['report', error.reportFile] as [string, string]] : []),
  ]);
}

function everyOneIn(report: string | undefined): string {
  return report ? `every one is in ${report}` : 'run with --report OUT.csv to list every one';
}

function count(value: number): string {
  return value.toLocaleString('en-US');
}
