/**
 * On GitHub Actions (GITHUB_ACTIONS=true), what a bulk run refused or failed becomes workflow
 * annotations that point at the input's lines, and the run's summary a short Markdown table
 * appended to the step summary (docs/guide.md, CI). Written through the run's output boundary
 * (the key masked), control characters escaped, and `%`, CR and LF (and in properties `:` and
 * `,`) escaped as the runner's workflow commands require.
 */
import { appendFileSync } from 'node:fs';
import { escapeLine } from './escape.js';
import type { IO } from './io.js';

/** Annotations a run writes at most; the rest are counted in one more line. */
const ANNOTATIONS_SHOWN = 10;

/** Where a job on GitHub Actions wants to hear of a run. */
export interface GitHubActions {
  /** $GITHUB_STEP_SUMMARY: the file the step's Markdown summary is appended to. */
  stepSummary?: string;
}

/** One input line that was refused or failed. */
export interface LineProblem {
  /** The input file as given; absent for items from no file (listings of a retry). */
  file?: string;
  line?: number;
  message: string;
}

/**
 * Writes `::error file=…,line=…,title=…::message` for the first ten problems, then, when there
 * are more (`count` in all), one `::notice` saying how many and where they all are.
 */
export function writeAnnotations(
  io: Pick<IO, 'stderr'>,
  title: string,
  problems: readonly LineProblem[],
  count: number,
  everyOne: string,
): void {
  for (const problem of problems.slice(0, ANNOTATIONS_SHOWN)) {
    const properties = [
      problem.file && problem.file !== '-' ? `file=${property(problem.file)}` : '',
      problem.line ? `line=${problem.line}` : '',
      `title=${property(title)}`,
    ].filter(Boolean);
    io.stderr.write(`::error ${properties.join(',')}::${data(problem.message)}\n`);
  }
  const more = count - Math.min(problems.length, ANNOTATIONS_SHOWN);
  if (more > 0) {
    io.stderr.write(
      `::notice title=${property(title)}::${data(`${more.toLocaleString('en-US')} more (${count.toLocaleString('en-US')} in all); ${everyOne}`)}\n`,
    );
  }
}

/** Appends `### title` and a two-column table of `rows` to the step summary, when the job has one. */
export function appendStepSummary(
  actions: GitHubActions,
  title: string,
  rows: readonly (readonly [string, string])[],
): void {
  if (!actions.stepSummary) return;
  const cell = (text: string) => escapeLine(text).replace(/\|/g, '\\|');
  const markdown = [
    `### ${cell(title)}`,
    '',
    '| | |',
    '| --- | --- |',
    ...rows.map(([name, value]) => `| ${cell(name)} | ${cell(value)} |`),
    '',
    '',
  ].join('\n');
  appendFileSync(actions.stepSummary, markdown);
}

/** "svc inventory push": the command words of a command line, for an annotation's title. */
export function commandTitle(argv: readonly string[]): string {
  const words: string[] = [];
  for (const arg of argv) {
    if (arg.startsWith('-')) continue;
    if (!/^[a-z]+$/.test(arg) || words.length === 2) break;
    words.push(arg);
  }
  return ['svc', ...words].join(' ');
}

/** A workflow command's message: `%`, CR and LF escaped (after any other control character). */
function data(text: string): string {
  return escapeLine(text).replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** A workflow command's property value: as data, and `:` and `,` escaped too. */
function property(text: string): string {
  return data(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}
