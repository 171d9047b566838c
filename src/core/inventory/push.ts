/**
 * `inventory push` once its file is checked: the lock and the journal (./push-journal.ts), the
 * plan (./push-plan.ts: the live read of --changed-only and --backup, the zeroing guard), the
 * batches on the wire (./push-batches.ts), and what --wait learns from the channels. It prints
 * nothing: it says what it does through `notes`, and hands each row's outcome to the ledger.
 */
import type { ApiClient } from '../../client/client.js';
import type { Credentials } from '../../config/credentials.js';
import type { CheckedCopy } from '../../config/journal-files.js';
import { storeIdentity, storeKey } from '../../config/store-identity.js';
import { counted, plural } from '../../words.js';
import type { BulkRunOptions } from '../bulk.js';
import type { Notes, Track } from '../notes.js';
import type { Followed, FollowFailure } from '../operations/follow.js';
import type { ItemOutcome, ItemRef } from '../outcomes.js';
import type { RowChange } from './changes.js';
import type { CheckedFile } from './check.js';
import type { PushVerdict } from './dry-verdicts.js';
import type { LiveStock } from './live-stock.js';
import type { PushLedger } from './push-batches.js';
import { type JournalFlags, PushJournal } from './push-journal.js';
import { type PlanFlags, type PushDryRun, type PushPlan, planPush, pushDryRun } from './push-plan.js';
import type { ZeroingRisk } from './zeroing.js';

/** The flags the push reads once they are parsed. */
export interface PushFlags extends JournalFlags, PlanFlags {
  /** --report: named where the channels' refusals are listed. */
  report?: string;
  /** The file was standard input: its checked copy is what a resume reads. */
  fromStdin?: boolean;
}

/** What the push needs from outside. */
export interface PushDeps {
  client(): Promise<ApiClient>;
  /** The key and base URL in force, which name the store (one store, one journal). */
  credentials(): Promise<Credentials>;
  /** The config dir, where the journals live. */
  configDir: string;
  now(): number;
  signal?: AbortSignal;
  notes: Notes;
  /** The progress of the live read. */
  track: Track;
  /** Writes the store's values before the push to the undo file (--backup), whole or not at all. */
  saveBackup(path: string, rows: readonly LiveStock[]): Promise<void>;
}

/** How the run sends: the bulk frame's pace and stop, and its record of outcomes. */
export interface PushSession extends PushLedger {
  readonly runOptions: BulkRunOptions;
}

/** What following the push's operations learned (--wait). */
export interface PushFollowUp {
  /** The final outcome of each SKU a channel refused. */
  refused: ItemOutcome[];
  /** Fields of the JSON summary. */
  json: Record<string, unknown>;
  /** How the refusals end the run (exit 3), if any did. */
  failure?: FollowFailure;
  /** Said when all went through. */
  done: string;
}

/** One push of a checked file, from the lock to its release. */
export class InventoryPush {
  /** The operations the confirmed batches started, followed with --wait. */
  readonly operationIds: string[] = [];
  private journalConfirmed?: () => number;
  /** Sent, and read again for the lines of channel refusals, from the copy the check wrote. */
  private sent: CheckedFile;
  private startedAt: number;

  private constructor(
    private readonly file: CheckedFile,
    private readonly copy: CheckedCopy | undefined,
    private readonly flags: PushFlags,
    private readonly deps: PushDeps,
    private readonly state: PushJournal,
    private readonly plan: PushPlan,
  ) {
    this.sent = file;
    this.startedAt = deps.now();
  }

  /**
   * Locks the file and store and opens its journal (resumed or not), then plans the push: with
   * --changed-only or --backup the store is read first, compared from the checked copy as it
   * is sent (a file replaced since the check changes nothing). Refuses (exit 2) what cannot go.
   */
  static async open(
    file: CheckedFile,
    copy: CheckedCopy | undefined,
    flags: PushFlags,
    deps: PushDeps,
  ): Promise<InventoryPush> {
    const identity = storeKey(storeIdentity(await deps.credentials()));
    const { configDir: dir, now, notes } = deps;
    const state = await PushJournal.open(file, flags, { dir, identity, now, notes });
    try {
      const checked = copy ? { ...file, path: copy.path } : file;
      const readStore = async () => {
        const { compareFileWithStore } = await import('./live-read.js');
        // The values before are kept only for a backup (a million changed SKUs would be a million objects).
        return compareFileWithStore(await deps.client(), checked, deps, undefined, {
          keepBefore: Boolean(flags.backup),
        });
      };
      const plan = await planPush(checked, flags, state, readStore, notes);
      return new InventoryPush(file, copy, flags, deps, state, plan);
    } catch (error) {
      state.release();
      throw error;
    }
  }

  /** The zeroing guard's finding, when the push would zero too much. */
  get zeroing(): ZeroingRisk | undefined {
    return this.plan.zeroing;
  }

  /**
   * The largest changes of the push and how many rows change in all, when the store was read
   * before it (--changed-only, --backup, or a preview); undefined otherwise.
   */
  get largestChanges(): { largest: RowChange[]; changed: number } | undefined {
    const { changes } = this.plan;
    return changes && { largest: changes.largest, changed: changes.counts.changed };
  }

  /** The guard was passed (--allow-zeroing, or a yes): a resume holds to it. */
  acceptZeroing(): void {
    this.state.decisions.zeroingAccepted = true;
  }

  /** Rows in the file: every one ends with an outcome, sent or not. */
  get total(): number {
    return this.file.rowCount;
  }

  /** The rows, read again from the copy sent (not kept in memory through a long push). */
  async *items(): AsyncGenerator<ItemRef> {
    const { inventoryBatches } = await import('./check.js');
    for await (const rows of inventoryBatches(this.sent, 1000))
      for (const row of rows) yield { line: row.line, key: row.sku };
  }

  /** What a dry run shows: what would be sent (of a resume, the rest), and what the plan found. */
  async dryRun(): Promise<PushDryRun> {
    const { state, file } = this;
    const { selection } = state.decisions;
    const { firstRowsToSend } = await import('./selection.js');
    const firstRows =
      selection || state.confirmedCount > 0
        ? await firstRowsToSend(file, state.batchSize, selection, (index) => state.isConfirmed(index), 5)
        : file.sample;
    const { batchSize, rowsToSend, confirmedCount: confirmedBatches } = state;
    return pushDryRun(file, { batchSize, rowsToSend, confirmedBatches, firstRows }, this.plan);
  }

  /**
   * Every row's verdict as this push would record it (a dry run's report): left out by the
   * selection, confirmed by the interrupted push, or judged against the store, from the read the
   * plan made (--changed-only, --backup) or else one made now (reads only).
   */
  async *verdicts(): AsyncGenerator<PushVerdict> {
    const { pushVerdicts, storeStock } = await import('./dry-verdicts.js');
    const { changes } = this.plan;
    const { state, deps } = this;
    const store = changes
      ? { compared: { send: changes.changedLines, unknown: changes.unknownLines } }
      : await storeStock(await deps.client(), deps.signal);
    yield* pushVerdicts(this.file, store, {
      batchSize: state.batchSize,
      selection: state.decisions.selection,
      isConfirmed: (index) => state.isConfirmed(index),
    });
  }

  /**
   * What this run sends and spends, said (and asked on a terminal) before a live key's run;
   * undefined when it sends nothing (nothing differs).
   */
  get confirmation(): string | undefined {
    const { state, file } = this;
    const requests = state.totalBatches - state.confirmedCount;
    if (requests === 0) return undefined;
    const { selection } = state.decisions;
    const count = (value: number) => value.toLocaleString('en-US');
    const differ = plural(state.rowsToSend, 'differs', 'differ');
    const rowsLeft = state.rowsToSend - state.confirmedRows;
    // What this run sends: of a resume, only the rows the interrupted push did not confirm.
    const skus =
      state.confirmedCount > 0
        ? selection
          ? `${count(rowsLeft)} of the ${counted(state.rowsToSend, 'SKU')} that ${differ} (of ${count(file.rowCount)}; the rest of the interrupted push)`
          : `${count(rowsLeft)} of ${counted(file.rowCount, 'SKU')} (the rest of the interrupted push)`
        : selection
          ? `the ${counted(state.rowsToSend, 'SKU')} that ${differ} (of ${count(file.rowCount)})`
          : counted(file.rowCount, 'SKU');
    return `Push ${skus} in ${counted(requests, 'request')} with a LIVE key (${counted(requests, 'unit')} of daily write quota)`;
  }

  /**
   * Sends every batch not yet confirmed, each confirmed one journaled, every row's outcome to
   * the session. Before the first write, and only now that the run goes ahead (a "no" or Ctrl-C
   * at the prompt leaves nothing behind): the undo file (--backup), then the journal.
   */
  async send(client: ApiClient, session: PushSession): Promise<void> {
    const { state, flags, deps } = this;
    const { changes } = this.plan;
    if (flags.backup && changes) {
      await saveBackup(deps, flags.backup, changes.before);
      state.decisions.backup = flags.backup;
    }
    // A non-dry run always checked into a copy: it is what the journal keeps and the push sends.
    const begun = state.begin(this.copy as CheckedCopy);
    this.journalConfirmed = () => begun.journal.confirmedCount;
    this.sent = { ...this.file, path: begun.sendFrom };
    this.startedAt = deps.now();
    const { pushBatches } = await import('./push-batches.js');
    try {
      await pushBatches(client, this.sent, {
        ...session.runOptions,
        batchSize: state.batchSize,
        selection: state.decisions.selection,
        journal: begun.journal,
        ledger: session,
        now: deps.now,
        onOperation: (id) => this.operationIds.push(id),
      });
      state.finished();
    } catch (error) {
      state.stopped(Boolean(flags.fromStdin));
      throw error;
    }
  }

  /** When the push began sending, less a minute of slack for a service clock a little behind ours: operations to follow start after it. */
  get followFrom(): string {
    return new Date(this.startedAt - 60_000).toISOString();
  }

  /** The channels' verdict on what the push sent: each refused SKU's final outcome, and how the run ends. */
  async followUp(followed: Followed): Promise<PushFollowUp> {
    const { channelRefusals, refusalsFailure, refusedOutcomes } = await import('./follow.js');
    const refusals = await channelRefusals(this.sent, followed);
    const pending = followed.pending.map((operation) => operation.id);
    const operations = this.operationIds.length;
    return {
      refused: refusedOutcomes(refusals),
      json: {
        channel_failures: refusals.map(({ index: _index, ...refusal }) => refusal),
        ...(pending.length > 0 ? { pending_operations: pending } : {}),
      },
      failure: refusalsFailure(refusals, this.flags.report),
      done:
        operations === 1
          ? 'The operation succeeded on the channels.'
          : `All ${operations} operations succeeded on the channels.`,
    };
  }

  /** Where a stopped push stands: batches confirmed of all, and the copy a resume of standard input reads. */
  get resumePoint(): { confirmed: number; total: number; resumeSource?: string } {
    return {
      confirmed: this.journalConfirmed?.() ?? 0,
      total: this.state.totalBatches,
      resumeSource: this.state.resumeSource,
    };
  }

  /** Lets the next run of this file and store go ahead. */
  release(): void {
    this.state.release();
  }
}

/** Writes the store's values of the SKUs the push changes to `path`, and says how to undo. */
async function saveBackup(deps: PushDeps, path: string, before: readonly LiveStock[]): Promise<void> {
  await deps.saveBackup(path, before);
  // A header-only file is refused as a push (an empty feed), so it is no undo command to offer.
  deps.notes.info(
    before.length === 0
      ? `Backup: this push changes no SKU, so there is nothing to undo; ${path} holds only the header.`
      : `Saved the store's values of the ${counted(before.length, 'SKU')} this push changes to ${path}; \`svc inventory push ${path}\` undoes it.`,
  );
}
