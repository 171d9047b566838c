/**
 * What lets `inventory push` stop and resume safely: the lock that keeps a second run of the
 * same file and store away while one is running, the journal of confirmed batches (resumed or
 * not by the policy of ./resume.ts), and what the first run decided, which a resume holds to.
 * The files themselves are config/'s: journal.ts, journal-files.ts, journal-lock.ts.
 */
import { resolve } from 'node:path';
import { Journal } from '../../config/journal.js';
import {
  type CheckedCopy,
  readSelection,
  removeSelection,
  writeSelection,
} from '../../config/journal-files.js';
import { type HeldLock, LockHeld, takeLock } from '../../config/journal-lock.js';
import { BATCH_MAX_ITEMS } from '../../contract/contract.js';
import { UsageError } from '../../errors.js';
import type { Notes } from '../notes.js';
import type { CheckedFile } from './check.js';
import { decideResume } from './resume.js';
import { type PushSelection, selectionProblem } from './selection.js';

/** What a run decided before its first write, kept in the journal so that a resume holds to it. */
export interface PushDecisions {
  /** --changed-only: the rows sent; undefined: every row. */
  selection?: PushSelection;
  /** Where the store's values before the push were written (--backup). */
  backup?: string;
  /** The zeroing guard was passed (--allow-zeroing, or a yes at the terminal). */
  zeroingAccepted?: boolean;
}

/** Where a push keeps its journal, and what it tells while it opens it. */
export interface JournalPlace {
  /** The config dir. */
  dir: string;
  /** storeKey() of the store pushed to: one store, one journal (as for incremental-export marks). */
  identity: string;
  now: () => number;
  notes: Notes;
}

/** The flags that decide how a journal is opened. */
export interface JournalFlags {
  resume?: boolean;
  batchSize?: number;
  map?: string;
  dryRun?: boolean;
  changedOnly?: boolean;
}

/** The journal side of one push, from the lock to the end. */
export class PushJournal {
  private journal?: Journal;
  /** The checked copy, kept beside the journal once the push started. */
  private copy?: CheckedCopy;
  private keptCopy?: string;
  /** The checked copy is what a resume reads (standard input): it stays after the run. */
  private copyForResume = false;
  /** What the first run decided (on resume: read back from the journal), once known. */
  decisions: PushDecisions = {};

  private constructor(
    private readonly place: JournalPlace,
    private readonly file: CheckedFile,
    private readonly lock: HeldLock | undefined,
    /** An interrupted push of this file and store, sound, when one is resumed. */
    readonly resumed: Journal | undefined,
    readonly batchSize: number,
    private readonly map: string | null,
  ) {}

  /**
   * Locks this file and store (unless `dryRun`), then finds the journal and decides, by the
   * resume policy of ./resume.ts, whether to resume it, saying which and why. Refuses (exit 2)
   * a live second run, and what the policy refuses.
   */
  static async open(file: CheckedFile, flags: JournalFlags, place: JournalPlace): Promise<PushJournal> {
    const { dir, identity, notes } = place;
    const journalFile = Journal.fileFor(dir, 'inventory', file.sha256, identity);
    const lock = flags.dryRun ? undefined : await lockOrRefuse(place, `${journalFile}.lock`, file.path);
    try {
      const map = flags.map?.trim() || null;
      const lookup = Journal.find(dir, identity, {
        kind: 'inventory',
        sha256: file.sha256,
        rowCount: file.rowCount,
        maxBatchSize: BATCH_MAX_ITEMS,
      });
      const decision = decideResume(lookup, {
        resume: Boolean(flags.resume),
        path: file.path,
        map,
        encoding: file.encoding,
        changedOnly: flags.changedOnly,
        changedSince: () => Journal.staleFor(dir, 'inventory', identity, resolve(file.path), file.sha256),
      });
      if (decision.info) notes.info(decision.info);
      if (decision.warning) notes.warn(decision.warning);
      const resumed = decision.journal;
      const planned = resumed?.data.batch_size;
      // A resume sends the batches the interrupted push journaled: another size would not line up.
      if (planned !== undefined && flags.batchSize !== undefined && flags.batchSize !== planned)
        notes.info(
          `--batch-size ${flags.batchSize} is not used: a resume sends the batches of ${planned} the interrupted push planned.`,
        );
      const batchSize = planned ?? flags.batchSize ?? BATCH_MAX_ITEMS;
      const state = new PushJournal(place, file, lock, resumed, batchSize, map);
      if (resumed) state.decisions = decisionsOf(resumed, file);
      return state;
    } catch (error) {
      lock?.release();
      throw error;
    }
  }

  /** Rows the push sends: the selection's (--changed-only), else every row of the file. */
  get rowsToSend(): number {
    return this.decisions.selection?.send.length ?? this.file.rowCount;
  }

  /** Batches the push has in all. */
  get totalBatches(): number {
    return Math.ceil(this.rowsToSend / this.batchSize);
  }

  /** Batches an earlier run confirmed. */
  get confirmedCount(): number {
    return (this.journal ?? this.resumed)?.confirmedCount ?? 0;
  }

  /** Rows of the batches an earlier run confirmed (the last batch may be short). */
  get confirmedRows(): number {
    const journal = this.journal ?? this.resumed;
    if (!journal) return 0;
    const last = this.totalBatches - 1;
    const short = this.batchSize * this.totalBatches - this.rowsToSend;
    return journal.confirmedCount * this.batchSize - (journal.isConfirmed(last) ? short : 0);
  }

  /** True for a batch an earlier run confirmed. */
  isConfirmed(index: number): boolean {
    return (this.journal ?? this.resumed)?.isConfirmed(index) ?? false;
  }

  /**
   * Starts (or takes up) the journal and keeps the checked copy beside it; returns the path
   * to send from. Called once the run goes ahead, so a "no" at the prompt leaves nothing.
   */
  begin(copy: CheckedCopy): { journal: Journal; sendFrom: string } {
    const { dir, identity, now } = this.place;
    const journalFile = Journal.fileFor(dir, 'inventory', this.file.sha256, identity);
    const { selection, backup, zeroingAccepted } = this.decisions;
    // A whole push that starts over leaves no lines of an earlier changed-only one behind.
    if (!this.resumed && !selection) removeSelection(journalFile);
    this.journal =
      this.resumed ??
      Journal.start(
        dir,
        {
          kind: 'inventory',
          path: resolve(this.file.path),
          sha256: this.file.sha256,
          identity,
          batch_size: this.batchSize,
          total_batches: this.totalBatches,
          map: this.map,
          encoding: this.file.encoding,
          // The lines go first, so that a journal never names lines that are not on disk.
          selection: selection ? writeSelection(journalFile, selection) : null,
          backup: backup ? resolve(backup) : null,
          zeroing_accepted: zeroingAccepted === true,
        },
        new Date(now()),
      );
    this.copy = copy;
    this.keptCopy = copy.keepBeside(this.journal.file);
    return { journal: this.journal, sendFrom: this.keptCopy };
  }

  /** The push finished: the journal and its selection go now, its copy at release() (--wait and the report still read it). */
  finished(): void {
    if (this.journal) {
      this.journal.remove();
      removeSelection(this.journal.file);
    }
  }

  /**
   * The push stopped: confirmations are written now. The checked copy stays after the run only
   * when it is what a resume reads (standard input); a file on disk is checked again on resume.
   */
  stopped(fromStdin: boolean): void {
    this.copyForResume = fromStdin;
    try {
      this.journal?.flush(new Date(this.place.now()));
    } catch {
      // The run ends on its own stop; a resume sends again what the journal lacks (stock is set, not added).
    }
  }

  /** The copy a resume of standard input reads. */
  get resumeSource(): string | undefined {
    return this.keptCopy;
  }

  /** Lets the next run of this file and store go ahead; the checked copy goes, unless a resume reads it. */
  release(): void {
    if (!this.copyForResume) this.copy?.removeKept();
    this.lock?.release();
  }
}

async function lockOrRefuse(place: JournalPlace, lockFile: string, shownPath: string): Promise<HeldLock> {
  try {
    return await takeLock(lockFile, new Date(place.now()));
  } catch (error) {
    if (!(error instanceof LockHeld)) throw error;
    const { pid, host, since } = error.holder;
    throw new UsageError(
      `another push of ${shownPath} to this store is running (pid ${pid} on ${host}, since ${since}); wait for it to end, or stop it and run with --resume (if that process is gone, remove ${error.lockFile})`,
    );
  }
}

/** What the interrupted run decided, read back; a selection that does not match its journal is refused. */
function decisionsOf(journal: Journal, file: CheckedFile): PushDecisions {
  const { selection, backup, zeroing_accepted } = journal.data;
  const decisions: PushDecisions = {
    backup: backup ?? undefined,
    zeroingAccepted: zeroing_accepted === true,
  };
  if (!selection) return decisions;
  const stored = readSelection(journal.file);
  const damaged = (why: string) =>
    new UsageError(
      `the list of changed rows beside the resume journal (${stored.path}) ${why}, so the push cannot be resumed; run without --resume to compare with the store again and push what differs`,
    );
  if (stored.text === undefined) throw damaged('is missing');
  if (stored.sha256 !== selection.sha256) throw damaged('was changed');
  let data: unknown;
  try {
    data = JSON.parse(stored.text);
  } catch {
    throw damaged('is not JSON');
  }
  const problem = selectionProblem(data, file.rowCount);
  if (problem || (data as PushSelection).send.length !== selection.rows)
    throw damaged(`is damaged (${problem ?? 'its count'})`);
  return { ...decisions, selection: data as PushSelection };
}
