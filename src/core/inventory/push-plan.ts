/**
 * What `inventory push` decides before its first write: with --changed-only or --backup, the
 * live read and the rows that differ; the zeroing guard's finding; and what a dry run shows.
 * A resume holds to what the interrupted run decided (its journal), never to a read of a store
 * that run already changed.
 */
import { resolve } from 'node:path';
import { UsageError } from '../../errors.js';
import { counted, plural } from '../../words.js';
import type { Notes } from '../notes.js';
import type { ChangeCounts, ChangePlan } from './changes.js';
import type { CheckedFile } from './check.js';
import type { InventoryRow } from './csv-rows.js';
import type { PushJournal } from './push-journal.js';
import { describeZeroing, exactZeroingRisk, fileZeroingRisk, type ZeroingRisk } from './zeroing.js';

/** The flags that shape the plan. */
export interface PlanFlags {
  changedOnly?: boolean;
  backup?: string;
  /**
   * Read the store even for a full push, to show the largest changes beside the question
   * (a live push asked at a terminal); the zeroing guard then counts exactly too.
   */
  preview?: boolean;
}

/** What the push will do, as far as it is known before the first write. */
export interface PushPlan {
  /** From the live read (--changed-only, --backup): the counts and each changed SKU's values now. */
  changes?: ChangePlan;
  /** The zeroing guard's finding, when the push would zero too much. */
  zeroing?: ZeroingRisk;
}

/**
 * Reads the store when the flags need it (`readStore`), records the selection in `state`,
 * and judges the zeroing risk.
 */
export async function planPush(
  file: CheckedFile,
  flags: PlanFlags,
  state: PushJournal,
  readStore: () => Promise<ChangePlan>,
  notes: Notes,
): Promise<PushPlan> {
  if (state.resumed) {
    holdToFirstBackup(notes, flags.backup, state.decisions.backup);
    // The interrupted run passed the guard (or had nothing to guard against) on this very file.
    return {};
  }
  if (!flags.changedOnly && !flags.backup && !flags.preview) {
    return { zeroing: fileZeroingRisk(file.zeroQuantityRows, file.rowCount) };
  }
  const changes = await readStore();
  const { counts } = changes;
  if (flags.changedOnly) {
    state.decisions.selection = { send: changes.changedLines, unknown: changes.unknownLines };
  }
  notes.info(planLine(counts, Boolean(flags.changedOnly), state.batchSize));
  return {
    changes,
    zeroing: exactZeroingRisk(counts.quantity_to_zero, counts.rows - counts.not_in_store),
  };
}

/** "37 of 2,000 rows differ from the store (…): 1 request instead of 20, 19 units of daily write quota saved." */
function planLine(counts: ChangeCounts, changedOnly: boolean, batchSize: number): string {
  const n = (value: number) => value.toLocaleString('en-US');
  const changedRequests = Math.ceil(counts.changed / batchSize);
  const fullRequests = Math.ceil(counts.rows / batchSize);
  const requests = (count: number) => `${n(count)} ${plural(count, 'request')}`;
  const parts = [`${n(counts.unchanged)} unchanged`];
  if (counts.not_in_store > 0) parts.push(`${n(counts.not_in_store)} not in the store`);
  const differ = `${n(counts.changed)} of ${n(counts.rows)} ${plural(counts.rows, 'row')} ${plural(counts.changed, 'differs', 'differ')} from the store (${parts.join(', ')})`;
  const saved = fullRequests - changedRequests;
  if (!changedOnly) {
    const instead =
      saved > 0 ? `--changed-only would take ${requests(changedRequests)}` : '--changed-only would save none';
    return `${differ}; all ${n(counts.rows)} are sent in ${requests(fullRequests)} (${instead}).`;
  }
  // Sending only what differs can take as many requests as the whole file: no saving to speak of.
  if (saved === 0) return `${differ}: ${requests(changedRequests)}, as many as for every row.`;
  return `${differ}: ${requests(changedRequests)} instead of ${n(fullRequests)}, ${n(saved)} ${plural(saved, 'unit')} of daily write quota saved.`;
}

/**
 * --backup on a resume: the store already holds part of the push, so a read now is no undo.
 * The file the first run wrote is the undo; any other path is refused (exit 2).
 */
function holdToFirstBackup(notes: Notes, asked: string | undefined, written: string | undefined): void {
  if (written && (!asked || resolve(asked) === written)) {
    notes.info(`The store's values from before this push are in ${written} (written by the first run).`);
    return;
  }
  if (!asked) return;
  throw new UsageError(
    written
      ? `the interrupted push wrote its backup to ${written}; resume with --backup ${written} (or without --backup): the store already holds part of the push, so a new read would not undo it`
      : 'the interrupted push took no backup, and the store already holds part of it, so a read now would not undo it; resume without --backup',
  );
}

/** What the zeroing guard says: going on with --allow-zeroing, the question on a terminal, the refusal without one. */
export function zeroingWords(risk: ZeroingRisk): { goingOn: string; question: string; refusal: string } {
  const what = describeZeroing(risk);
  return {
    goingOn: `${what}; going on (--allow-zeroing)`,
    question: `${what.charAt(0).toUpperCase()}${what.slice(1)}: that takes them off every channel. Push anyway?`,
    refusal: `${what}; nothing was sent. A broken export often looks like this; if it is meant, run again with --allow-zeroing`,
  };
}

/** What a dry run shows: the plan as data, what would happen in a sentence, the first rows it would send. */
export interface PushDryRun {
  plan: Record<string, unknown>;
  what: string;
  heading: string;
  first: string[];
}

/** Where a dry run stands: the rows to send, the batches of an earlier run, the first rows. */
export interface DryRunState {
  batchSize: number;
  rowsToSend: number;
  confirmedBatches: number;
  firstRows: readonly InventoryRow[];
}

/** A dry run of the whole file, judged on the file alone: it needs neither the store nor a journal. */
export function offlineDryRun(file: CheckedFile, batchSize: number): PushDryRun {
  const zeroing = fileZeroingRisk(file.zeroQuantityRows, file.rowCount);
  const state = { batchSize, rowsToSend: file.rowCount, confirmedBatches: 0, firstRows: file.sample };
  return pushDryRun(file, state, { zeroing });
}

/** What a dry run (or a resume's) would send, with what the read and the zeroing guard found. */
export function pushDryRun(
  file: CheckedFile,
  { batchSize, rowsToSend, confirmedBatches, firstRows }: DryRunState,
  { changes, zeroing }: PushPlan,
): PushDryRun {
  const total = Math.ceil(rowsToSend / batchSize);
  const requests = total - confirmedBatches;
  const count = (value: number) => value.toLocaleString('en-US');
  const skus =
    rowsToSend === file.rowCount
      ? counted(file.rowCount, 'SKU')
      : `${count(rowsToSend)} of ${counted(file.rowCount, 'SKU')}`;
  const what =
    confirmedBatches > 0
      ? `resuming, ${count(requests)} of ${count(total)} batches of ${batchSize} would be sent`
      : `${skus} would be pushed in ${counted(requests, 'request')}`;
  const stop = zeroing && `${describeZeroing(zeroing)}: the push would stop (--allow-zeroing goes on)`;
  return {
    plan: {
      file: file.path,
      columns: Object.fromEntries(file.plan.used.map(({ field, header }) => [field, header])),
      ignored_columns: file.plan.ignored,
      rows: file.rowCount,
      ...(file.emptyRows > 0 ? { empty_rows_skipped: file.emptyRows } : {}),
      ...(rowsToSend !== file.rowCount ? { rows_to_send: rowsToSend } : {}),
      requests,
      write_quota: requests,
      batch_size: batchSize,
      ...(confirmedBatches > 0 ? { confirmed_batches: confirmedBatches, total_batches: total } : {}),
      ...(changes ? { changes: changes.counts } : {}),
      ...(zeroing ? { zeroing_guard: { ...zeroing, message: stop } } : {}),
      first_rows: firstRows.map(({ sku, quantity, price }) => ({ sku, quantity, price })),
    },
    what: `${what} (${requests} ${plural(requests, 'unit')} of daily write quota)${stop ? `. Zeroing guard: ${stop}` : ''}`,
    heading: 'First rows',
    first: firstRows.map(
      (r) =>
        `line ${r.line}: ${r.sku}${r.quantity === undefined ? '' : ` quantity=${r.quantity}`}${r.price === undefined ? '' : ` price=${r.price}`}`,
    ),
  };
}
