/**
 * What lets `inventory push` stop and resume safely: the checked copy it sends from, the
 * journal of confirmed batches, and the lock that keeps a second run of the same file and
 * store away while one is running.
 */
import { closeSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { BATCH_MAX_ITEMS } from '../../api/contract.js';
import type { Context } from '../../cli/context.js';
import { configDir } from '../../config/config-store.js';
import { Journal, type JournalLookup } from '../../config/journal.js';
import { type HeldLock, LockHeld, takeLock } from '../../config/journal-lock.js';
import { storeIdentity, storeKey } from '../../config/store-identity.js';
import type { CheckedFile } from '../../core/inventory/check.js';
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
  static create(ctx: Context): CheckedCopy {
    const folder = join(configDir(ctx.env), 'journals');
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    const copy = new CheckedCopy(join(folder, `checking-${process.pid}-${Date.now()}.csv`));
    // Gone at exit unless a journal kept it (moved to its own name).
    process.once('exit', () => copy.discard());
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

/** The journal side of one push, from the lock to the end. */
export class PushJournal {
  private journal?: Journal;
  /** The checked copy kept beside the journal, once the push started. */
  private keptCopy?: string;
  /** Every batch was confirmed. */
  private done = false;

  private constructor(
    private readonly ctx: Context,
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
   * Locks this file and store (unless `dryRun`), then finds the journal and decides: resume
   * it (--resume), or start over, saying which and why. Refuses (exit 2) a live second run, a
   * damaged journal on --resume, and a resume with another --map.
   */
  static async open(
    ctx: Context,
    file: CheckedFile,
    options: { resume?: boolean; batchSize: number; map?: string; dryRun?: boolean },
  ): Promise<PushJournal> {
    const dir = configDir(ctx.env);
    // The same rule as incremental-export marks: one store, one journal.
    const identity = storeKey(storeIdentity(await ctx.credentials()));
    const journalFile = Journal.fileFor(dir, 'inventory', file.sha256, identity);
    const lock = options.dryRun ? undefined : lockOrRefuse(ctx, `${journalFile}.lock`, file.path);
    try {
      const map = options.map?.trim() || null;
      const lookup = Journal.find(dir, identity, {
        kind: 'inventory',
        sha256: file.sha256,
        rowCount: file.rowCount,
        maxBatchSize: BATCH_MAX_ITEMS,
      });
      const resumed = options.resume ? resumable(ctx, file, lookup, map, dir, identity) : undefined;
      if (!options.resume) warnStartingOver(ctx, lookup);
      const batchSize = resumed?.data.batch_size ?? options.batchSize;
      return new PushJournal(ctx, file, dir, identity, lock, resumed, batchSize, map);
    } catch (error) {
      lock?.release();
      throw error;
    }
  }

  /** Batches the push has in all. */
  get totalBatches(): number {
    return Math.ceil(this.file.rowCount / this.batchSize);
  }

  /** Batches an earlier run confirmed. */
  get confirmedCount(): number {
    return (this.journal ?? this.resumed)?.confirmedCount ?? 0;
  }

  /**
   * Starts (or takes up) the journal and keeps the checked copy beside it; returns the path
   * to send from. Called once the run goes ahead, so a "no" at the prompt leaves nothing.
   */
  begin(copy: CheckedCopy): { journal: Journal; sendFrom: string } {
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
        },
        new Date(this.ctx.now()),
      );
    this.keptCopy = copy.keepAs(this.journal.file.replace(/\.json$/, '.csv'));
    return { journal: this.journal, sendFrom: this.keptCopy };
  }

  /** The push finished: the journal goes now, its copy at release() (--wait still reads it for lines). */
  finished(): void {
    this.journal?.remove();
    this.done = true;
  }

  /**
   * The push stopped: confirmations are written now. The checked copy stays only when it is
   * what a resume reads (standard input); a file on disk is checked again on resume.
   */
  stopped(fromStdin: boolean): void {
    this.journal?.flush(new Date(this.ctx.now()));
    if (!fromStdin && this.keptCopy) rmSync(this.keptCopy, { force: true });
  }

  /** The copy a resume of standard input reads. */
  get resumeSource(): string | undefined {
    return this.keptCopy;
  }

  /** Lets the next run of this file and store go ahead; a finished push's copy goes. */
  release(): void {
    if (this.done && this.keptCopy) rmSync(this.keptCopy, { force: true });
    this.lock?.release();
  }
}

function lockOrRefuse(ctx: Context, lockFile: string, shownPath: string): HeldLock {
  try {
    return takeLock(lockFile, new Date(ctx.now()));
  } catch (error) {
    if (!(error instanceof LockHeld)) throw error;
    const { pid, host, since } = error.holder;
    throw new UsageError(
      `another push of ${shownPath} to this store is running (pid ${pid} on ${host}, since ${since}); wait for it to end, or stop it and run with --resume (if that process is gone, remove ${error.lockFile})`,
    );
  }
}

/** The journal --resume continues, or undefined (a whole push, said so) when there is none. */
function resumable(
  ctx: Context,
  file: CheckedFile,
  lookup: JournalLookup,
  map: string | null,
  dir: string,
  identity: string,
): Journal | undefined {
  if (lookup.state === 'damaged') {
    throw new UsageError(
      `the resume journal ${lookup.file} is damaged (${lookup.problem}), so the push cannot be resumed; run without --resume to push the whole file (that replaces it)`,
    );
  }
  if (lookup.state === 'none') {
    const changed = Journal.staleFor(dir, 'inventory', identity, resolve(file.path), file.sha256);
    ctx.messages.info(
      changed.length > 0
        ? `${file.path} changed since the interrupted push of ${changed[0].updated_at}; pushing the whole file.`
        : `No interrupted push of ${file.path} to resume; pushing the whole file.`,
    );
    return undefined;
  }
  const { journal } = lookup;
  if (journal.data.map !== map) {
    const was = journal.data.map === null ? 'no --map' : `--map ${journal.data.map}`;
    const now = map === null ? 'no --map' : `--map ${map}`;
    throw new UsageError(
      `the interrupted push of ${file.path} read it with ${was}, this run with ${now}; resume with the same ${journal.data.map === null ? 'columns (no --map)' : `--map ${journal.data.map}`}, or run without --resume to push the whole file`,
    );
  }
  if (journal.data.encoding !== file.encoding) {
    throw new UsageError(
      `the interrupted push of ${file.path} read it as ${journal.data.encoding}, this run as ${file.encoding}; resume with --encoding ${journal.data.encoding}, or run without --resume to push the whole file`,
    );
  }
  ctx.messages.info(
    `Resuming: ${journal.confirmedCount} of ${journal.data.total_batches} batches (of ${journal.data.batch_size}) were confirmed on ${journal.data.updated_at}.`,
  );
  return journal;
}

function warnStartingOver(ctx: Context, lookup: JournalLookup): void {
  if (lookup.state === 'found') {
    const { journal } = lookup;
    ctx.messages.warn(
      `an interrupted push of this file exists (${journal.confirmedCount} of ${journal.data.total_batches} batches confirmed); starting over. Use --resume to send only the unconfirmed batches.`,
    );
  } else if (lookup.state === 'damaged') {
    ctx.messages.warn(`the resume journal ${lookup.file} is damaged (${lookup.problem}); starting over.`);
  }
}
