/**
 * The policy of `inventory push --resume`: given the journal found for this file and store,
 * whether the push resumes it or sends the whole file, and what to tell the user either way.
 * A resume must read the file as the interrupted push did, so another --map or --encoding is
 * refused (exit 2), as is a damaged journal; without --resume a journal found is replaced.
 */
import type { Journal, JournalData, JournalLookup } from '../../config/journal.js';
import { UsageError } from '../../errors.js';
import type { TextEncoding } from '../csv/text.js';

/** What this run asks for and how it reads the file. */
export interface ResumeRequest {
  /** --resume was given. */
  resume: boolean;
  /** The file as shown to the user. */
  path: string;
  /** --map as given (trimmed), or null without it. */
  map: string | null;
  encoding: TextEncoding;
  /** --changed-only was given: a resume must send the rows the interrupted push selected. */
  changedOnly?: boolean;
  /** Interrupted pushes of this path whose file has changed since (read only when needed). */
  changedSince: () => readonly Pick<JournalData, 'updated_at'>[];
}

/** The journal to resume, if any, and the line that says what happens. */
export interface ResumeDecision {
  journal?: Journal;
  info?: string;
  warning?: string;
}

/** Resume the journal found (--resume), or start over, saying which and why; refuses what cannot be resumed. */
export function decideResume(lookup: JournalLookup, request: ResumeRequest): ResumeDecision {
  if (!request.resume) return startingOver(lookup);
  const fresh = request.changedOnly
    ? 'pushing the rows that differ from the store'
    : 'pushing the whole file';
  if (lookup.state === 'damaged') {
    throw new UsageError(
      `the resume journal ${lookup.file} is damaged (${lookup.problem}), so the push cannot be resumed; run without --resume to push the whole file (that replaces it)`,
    );
  }
  if (lookup.state === 'none') {
    const [changed] = request.changedSince();
    return {
      info: changed
        ? `${request.path} changed since the interrupted push of ${changed.updated_at}; ${fresh}.`
        : `No interrupted push of ${request.path} to resume; ${fresh}.`,
    };
  }
  const { journal } = lookup;
  const { map, encoding } = journal.data;
  if (map !== request.map) {
    const was = map === null ? 'no --map' : `--map ${map}`;
    const now = request.map === null ? 'no --map' : `--map ${request.map}`;
    throw new UsageError(
      `the interrupted push of ${request.path} read it with ${was}, this run with ${now}; resume with the same ${map === null ? 'columns (no --map)' : `--map ${map}`}, or run without --resume to push the whole file`,
    );
  }
  if (encoding !== request.encoding) {
    throw new UsageError(
      `the interrupted push of ${request.path} read it as ${encoding}, this run as ${request.encoding}; resume with --encoding ${encoding}, or run without --resume to push the whole file`,
    );
  }
  // The rows a changed-only push selected are the ones its batches count: a resume sends those, or none.
  const { selection } = journal.data;
  if (Boolean(selection) !== Boolean(request.changedOnly)) {
    const was = selection ? 'sent only the rows that differed (--changed-only)' : 'sent every row';
    throw new UsageError(
      `the interrupted push of ${request.path} ${was}; resume ${selection ? 'with' : 'without'} --changed-only, or run without --resume to start over`,
    );
  }
  const of = selection ? ` of the ${selection.rows.toLocaleString('en-US')} rows that differed` : '';
  return {
    journal,
    info: `Resuming: ${journal.confirmedCount} of ${journal.data.total_batches} batches (of ${journal.data.batch_size})${of} were confirmed on ${journal.data.updated_at}.`,
  };
}

/** Without --resume: a journal found is replaced, said as a warning. */
function startingOver(lookup: JournalLookup): ResumeDecision {
  if (lookup.state === 'found') {
    const { journal } = lookup;
    return {
      warning: `an interrupted push of this file exists (${journal.confirmedCount} of ${journal.data.total_batches} batches confirmed); starting over. Use --resume to send only the unconfirmed batches.`,
    };
  }
  if (lookup.state === 'damaged')
    return { warning: `the resume journal ${lookup.file} is damaged (${lookup.problem}); starting over.` };
  return {};
}
