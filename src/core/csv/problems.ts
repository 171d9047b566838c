/** The error a file check ends with: every bad line kept (for --report and JSON), the first 50 shown. */
import { type InputProblem, UsageError } from '../../errors.js';
import { NOT_UTF8_HINT } from './text.js';

/** How many bad lines are listed under the message before the rest are only counted. */
export const PROBLEMS_SHOWN = 50;

/** UsageError (exit 2) for a file with bad lines: the first 50 as details, every one in `problems`. */
export function badLinesError(path: string, problems: readonly InputProblem[]): UsageError {
  const sorted = [...problems].sort((a, b) => a.line - b.line);
  const lines = new Set(sorted.map((problem) => problem.line)).size;
  const shown = sorted.slice(0, PROBLEMS_SHOWN).map((problem) => `line ${problem.line}: ${problem.message}`);
  const more = sorted.length - shown.length;
  const encoding = sorted.some((problem) => problem.code === 'invalid_utf8') ? `; ${NOT_UTF8_HINT}` : '';
  return new UsageError(
    `${path}: ${lines} bad line${lines === 1 ? '' : 's'}; fix ${lines === 1 ? 'it' : 'them'} and run again (nothing was sent)${encoding}`,
    more > 0 ? [...shown, `… and ${more} more`] : shown,
    sorted,
  );
}

/** What a CSV read ends with when the parser gives up: a UsageError as it is, else one naming the line. */
export function unreadableCsv(path: string, error: unknown): Error {
  if (error instanceof UsageError) return error;
  const lines = (error as { lines?: number }).lines;
  return new UsageError(
    `${path}${lines ? ` line ${lines}` : ''}: not readable as CSV: ${(error as Error).message}; nothing was sent`,
  );
}
