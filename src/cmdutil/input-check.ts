/**
 * The whole-file check every bulk command runs before its first request, framed the same
 * way: a missing file is named, and a file with bad lines writes every one of them to
 * `--report` (status `invalid`) before the run stops with exit 2, even though nothing is sent.
 */
import { PROBLEMS_SHOWN } from '../core/csv/problems.js';
import type { TextEncoding } from '../core/csv/text.js';
import { FileError, UsageError } from '../errors.js';
import { plural } from '../words.js';
import type { Deps } from './deps.js';
import type { InputDeps, OutputFiles } from './input-file.js';

/** How a bulk command's input file is read: the flags that bear on it. */
export interface InputFlags {
  /** --report: every bad line goes to it; it may not be the input. */
  report?: string;
  /** --encoding as given. */
  encoding?: string;
  /** Other files the command writes (`--backup`), by flag: none may be the input. */
  outputs?: OutputFiles;
}

/**
 * The one way a bulk command reads its input file (push, fulfil, upsert, publish): standard
 * input and other non-regular files spooled (./input-file.ts); the encoding, `--encoding` or
 * else UTF-8, or Windows-1252 detected with one notice naming --encoding; then `check` reads
 * `source` whole with that encoding, its bad lines going to --report (exit 2, nothing sent).
 */
export async function readInputFile<T>(
  ctx: InputDeps,
  path: string,
  flags: InputFlags,
  check: (source: string, encoding: TextEncoding, shownPath: string) => Promise<T>,
): Promise<T> {
  const { inputFile } = await import('./input-file.js');
  const source = await inputFile(ctx, path, { '--report': flags.report, ...flags.outputs });
  const encoding = await inputEncoding(ctx, source, path, flags.encoding);
  const shownPath = path === '-' ? 'standard input' : path;
  return checkInput(path, flags.report, () => check(source, encoding, shownPath));
}

/** Runs `check` on the file shown as `shownPath`; on bad lines, fills `--report` first. */
async function checkInput<T>(
  shownPath: string,
  report: string | undefined,
  check: () => Promise<T>,
): Promise<T> {
  try {
    return await check();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new FileError(`no such file: ${shownPath}`);
    if (!(error instanceof UsageError) || !error.problems?.length) throw error;
    error.inputFile = shownPath;
    if (report) {
      const { writeReport } = await import('../output/report.js');
      try {
        await writeReport(
          report,
          error.problems.map((problem) => ({ ...problem, key: problem.key ?? '', status: 'invalid' })),
        );
        error.message += `; every bad line is in ${report}`;
        error.reportFile = report;
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

/**
 * The encoding to read an input file with: `--encoding` when given; else UTF-8, or Windows-1252
 * for a file that is not UTF-8 but is Windows-1252 (what Excel saves as "CSV" in Western
 * Europe), said in one notice naming --encoding.
 */
async function inputEncoding(
  ctx: Pick<Deps, 'io'>,
  source: string,
  shownPath: string,
  flag: string | undefined,
): Promise<TextEncoding> {
  const { parseEncoding, sniffEncoding } = await import('../core/csv/text.js');
  if (flag !== undefined) return parseEncoding(flag);
  const encoding = await sniffEncoding(source).catch(() => 'utf-8' as const);
  if (encoding === 'latin1')
    ctx.io.messages.info(
      `${shownPath === '-' ? 'standard input' : shownPath} is not UTF-8 but reads as Windows-1252 (as Excel on Windows saves "CSV"): read as such; --encoding utf-8 reads it as UTF-8 instead.`,
    );
  return encoding;
}
