/**
 * What lets `inventory push` stop and resume safely: the checked copy it sends from, the
 * journal of confirmed batches, and the lock that keeps a second run of the same file and
 * store away while one is running.
 */
import { createHash, randomUUID } from 'node:crypto';
import {
  closeSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { join, resolve } from 'node:path';
import type { Deps } from '../../cmdutil/deps.js';
import { configDir } from '../../config/config-store.js';
import whenExit from '../../config/exit-hooks.js';
import { Journal } from '../../config/journal.js';
import { type HeldLock, LockHeld, takeLock } from '../../config/journal-lock.js';
import { storeIdentity, storeKey } from '../../config/store-identity.js';
import { BATCH_MAX_ITEMS } from '../../contract/contract.js';
import type { CheckedFile } from '../../core/inventory/check.js';
import { decideResume } from '../../core/inventory/resume.js';
import { type PushSelection, selectionProblem } from '../../core/inventory/selection.js';
import { UsageError } from '../../errors.js';

/**
 * A private copy of exactly the bytes the check read, written while it reads them: what is
 * sent is what was checked, even if the file is replaced during the push.
 */
export class CheckedCopy {
  private fd?: number;

  private constructor(readonly path: string) {
    this.fd = openSync(path, 'wx', 0o600);
  }

  /** A new, empty copy in the journals folder. */
  static create(ctx: Pick<Deps, 'env'>): CheckedCopy {
    const folder = join(configDir(ctx.env), 'journals');
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    const copy = new CheckedCopy(join(folder, `checking-${process.pid}-${randomUUID()}.csv`));
    // Gone at exit unless a journal kept it (moved to its own name).
    whenExit(() => copy.discard());
    return copy;
  }

  /** Appends bytes as the check reads them. */
  readonly write = (chunk: Buffer): void => {
    if (this.fd !== undefined) writeSync(this.fd, chunk);
  };

  /** Closes the copy once the check read everything. */
  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }

  /** Moves the copy to `path` (beside its journal) and returns it. */
  keepAs(path: string): string {
    this.close();
    renameSync(this.path, path);
    return path;
  }

  /** Removes the copy (nothing was sent, or the check failed). */
  discard(): void {
    this.close();
    rmSync(this.path, { force: true });
  }
}

/** What a run decided before its first write, kept in the journal so that a resume holds to it. */
export interface PushDecisions {
  /** --changed-only: the rows sent; undefined: every row. */
  selection?: PushSelection;
  /** Where the store's values before the push were written (--backup). */
  backup?: string;
  /** The zeroing guard was passed (--allow-zeroing, or a yes at the terminal). */
  zeroingAccepted?: boolean;
}

/** What the journal side of a push uses. */
type JournalDeps = Pick<Deps, 'env' | 'credentials' | 'io' | 'now'>;

/** The journal side of one push, from the lock to the end. */
export class PushJournal {
  private journal?: Journal;
  /** The checked copy kept beside the journal, once the push started. */
  private keptCopy?: string;
  /** The checked copy is what a resume reads (standard input): it stays after the run. */
  private copyForResume = false;
  /** What the first run decided (on resume: read back from the journal), once known. */
  decisions: PushDecisions = {};

  private constructor(
    private readonly ctx: JournalDeps,
    private readonly file: CheckedFile,
    private readonly dir: string,
    private readonly identity: string,
    private readonly lock: HeldLock | undefined,
    /** An interrupted push of this file and store, sound, when one is resumed. */
    readonly resumed: Journal | undefined,
    readonly batchSize: number,
    private readonly map: string | null,
  ) {}

  /**
   * Locks this file and store (unless `dryRun`), then finds the journal and decides, by the
   * resume policy of core/inventory/resume.ts, whether to resume it, saying which and why.
   * Refuses (exit 2) a live second run, and what the policy refuses.
   */
  static async open(
    ctx: JournalDeps,
    file: CheckedFile,
    options: { resume?: boolean; batchSize?: number; map?: string; dryRun?: boolean; changedOnly?: boolean },
  ): Promise<PushJournal> {
    const dir = configDir(ctx.env);
    // The same rule as incremental-export marks: one store, one journal.
    const identity = storeKey(storeIdentity(await ctx.credentials()));
    const journalFile = Journal.fileFor(dir, 'inventory', file.sha256, identity);
    const lock = options.dryRun ? undefined : await lockOrRefuse(ctx, `${journalFile}.lock`, file.path);
    try {
      const map = options.map?.trim() || null;
      const lookup = Journal.find(dir, identity, {
        kind: 'inventory',
        sha256: file.sha256,
        rowCount: file.rowCount,
        maxBatchSize: BATCH_MAX_ITEMS,
      });
      const decision = decideResume(lookup, {
        resume: Boolean(options.resume),
        path: file.path,
        map,
        encoding: file.encoding,
        changedOnly: options.changedOnly,
        changedSince: () => Journal.staleFor(dir, 'inventory', identity, resolve(file.path), file.sha256),
      });
      if (decision.info) ctx.io.messages.info(decision.info);
      if (decision.warning) ctx.io.messages.warn(decision.warning);
      const resumed = decision.journal;
      const planned = resumed?.data.batch_size;
      // A resume sends the batches the interrupted push journaled: another size would not line up.
      if (planned !== undefined && options.batchSize !== undefined && options.batchSize !== planned)
        ctx.io.messages.info(
          `--batch-size ${options.batchSize} is not used: a resume sends the batches of ${planned} the interrupted push planned.`,
        );
      const batchSize = planned ?? options.batchSize ?? BATCH_MAX_ITEMS;
      const state = new PushJournal(ctx, file, dir, identity, lock, resumed, batchSize, map);
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
    const journalFile = Journal.fileFor(this.dir, 'inventory', this.file.sha256, this.identity);
    const { selection, backup, zeroingAccepted } = this.decisions;
    // A whole push that starts over leaves no lines of an earlier changed-only one behind.
    if (!this.resumed && !selection) rmSync(selectionFile(journalFile), { force: true });
    this.journal =
      this.resumed ??
      Journal.start(
        this.dir,
        {
          kind: 'inventory',
          path: resolve(this.file.path),
          sha256: this.file.sha256,
          identity: this.identity,
          batch_size: this.batchSize,
          total_batches: this.totalBatches,
          map: this.map,
          encoding: this.file.encoding,
          // The lines go first, so that a journal never names lines that are not on disk.
          selection: selection ? writeSelection(selectionFile(journalFile), selection) : null,
          backup: backup ? resolve(backup) : null,
          zeroing_accepted: zeroingAccepted === true,
        },
        new Date(this.ctx.now()),
      );
    this.keptCopy = copy.keepAs(this.journal.file.replace(/\.json$/, '.csv'));
    return { journal: this.journal, sendFrom: this.keptCopy };
  }

  /** The push finished: the journal and its selection go now, its copy at release() (--wait and the report still read it). */
  finished(): void {
    if (this.journal) {
      this.journal.remove();
      rmSync(selectionFile(this.journal.file), { force: true });
    }
  }

  /**
   * The push stopped: confirmations are written now. The checked copy stays after the run only
   * when it is what a resume reads (standard input); a file on disk is checked again on resume.
   */
  stopped(fromStdin: boolean): void {
    this.journal?.flush(new Date(this.ctx.now()));
    this.copyForResume = fromStdin;
  }

  /** The copy a resume of standard input reads. */
  get resumeSource(): string | undefined {
    return this.keptCopy;
  }

  /** Lets the next run of this file and store go ahead; the checked copy goes, unless a resume reads it. */
  release(): void {
    if (!this.copyForResume && this.keptCopy) rmSync(this.keptCopy, { force: true });
    this.lock?.release();
  }
}

async function lockOrRefuse(ctx: Pick<Deps, 'now'>, lockFile: string, shownPath: string): Promise<HeldLock> {
  try {
    return await takeLock(lockFile, new Date(ctx.now()));
  } catch (error) {
    if (!(error instanceof LockHeld)) throw error;
    const { pid, host, since } = error.holder;
    throw new UsageError(
      `another push of ${shownPath} to this store is running (pid ${pid} on ${host}, since ${since}); wait for it to end, or stop it and run with --resume (if that process is gone, remove ${error.lockFile})`,
    );
  }
}

/** The lines of a changed-only push live beside its journal. */
function selectionFile(journalFile: string): string {
  return journalFile.replace(/\.json$/, '.selection.json');
}

/** Writes the selection (atomically) and returns what the journal records of it. */
function writeSelection(path: string, selection: PushSelection): { rows: number; sha256: string } {
  const text = JSON.stringify({ send: selection.send, unknown: selection.unknown });
  const temp = `${path}.${process.pid}.tmp`;
  writeFileSync(temp, text, { mode: 0o600 });
  renameSync(temp, path);
  return { rows: selection.send.length, sha256: createHash('sha256').update(text).digest('hex') };
}

/** What the interrupted run decided, read back; a selection that does not match its journal is refused. */
function decisionsOf(journal: Journal, file: CheckedFile): PushDecisions {
  const { selection, backup, zeroing_accepted } = journal.data;
  const decisions: PushDecisions = {
    backup: backup ?? undefined,
    zeroingAccepted: zeroing_accepted === true,
  };
  if (!selection) return decisions;
  const path = selectionFile(journal.file);
  const damaged = (why: string) =>
    new UsageError(
      `the list of changed rows beside the resume journal (${path}) ${why}, so the push cannot be resumed; run without --resume to compare with the store again and push what differs`,
    );
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    throw damaged('is missing');
  }
  if (createHash('sha256').update(text).digest('hex') !== selection.sha256) throw damaged('was changed');
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw damaged('is not JSON');
  }
  const problem = selectionProblem(data, file.rowCount);
  if (problem || (data as PushSelection).send.length !== selection.rows)
    throw damaged(`is damaged (${problem ?? 'its count'})`);
  return { ...decisions, selection: data as PushSelection };
}
