/**
 * The whole-file check every bulk command runs before its first request, framed the same
 * way: a missing file is named, and a file with bad lines writes every one of them to
 * `--report` (status `invalid`) before the run stops with exit 2, even though nothing is sent.
 */
import { PROBLEMS_SHOWN } from '../core/csv/problems.js';
import { FileError, UsageError } from '../errors.js';
import { plural } from '../words.js';
import type { Deps } from './deps.js';

/** Runs `check` on the file shown as `shownPath`; on bad lines, fills `--report` first. */
export async function checkInput<T>(
  shownPath: string,
  report: string | undefined,
  check: () => Promise<T>,
): Promise<T> {
  try {
    return await check();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new FileError(`no such file: ${shownPath}`);
    if (!(error instanceof UsageError) || !error.problems?.length) throw error;
    if (report) {
      const { writeReport } = await import('../output/report.js');
      try {
        await writeReport(
          report,
          error.problems.map((problem) => ({ ...problem, key: problem.key ?? '', status: 'invalid' })),
        );
        error.message += `; every bad line is in ${report}`;
      } catch (unwritable) {
        // The bad lines matter more than the report: say both.
        error.message += `; ${(unwritable as Error).message}`;
      }
    } else if (error.problems.length > PROBLEMS_SHOWN) {
      error.message += '; --report OUT.csv lists every one';
    }
    throw error;
  }
}

/**
 * The plan line naming the columns read and left out, and the rows of empty cells skipped
 * (stderr; quiet with -q).
 */
export function showColumns(ctx: Pick<Deps, 'io'>, described: string, emptyRows = 0): void {
  const skipped =
    emptyRows > 0 ? ` ${emptyRows} empty ${plural(emptyRows, 'row')} (every cell empty) skipped.` : '';
  ctx.io.messages.info(`Columns: ${described}.${skipped}`);
}
