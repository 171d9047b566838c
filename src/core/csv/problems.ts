/** The error a file check ends with: every bad line kept (for --report and JSON), the first 50 shown. */
import { type InputProblem, UsageError } from '../../errors.js';
import { capped, plural } from '../../words.js';
import { NOT_UTF8_HINT } from './text.js';

/** How many bad lines are listed under the message before the rest are only counted. */
export const PROBLEMS_SHOWN = 50;

/** UsageError (exit 2) for a file with bad lines: the first 50 as details, every one in `problems`. */
export function badLinesError(path: string, problems: readonly InputProblem[]): UsageError {
  const sorted = [...problems].sort((a, b) => a.line - b.line);
  const lines = new Set(sorted.map((problem) => problem.line)).size;
  const encoding = sorted.some((problem) => problem.code === 'invalid_utf8') ? `; ${NOT_UTF8_HINT}` : '';
  return new UsageError(
    `${path}: ${lines} bad ${plural(lines, 'line')}; fix ${plural(lines, 'it', 'them')} and run again (nothing was sent)${encoding}`,
    capped(
      sorted.map((problem) => `line ${problem.line}: ${problem.message}`),
      PROBLEMS_SHOWN,
    ),
    sorted,
  );
}
