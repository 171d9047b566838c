/**
 * What `inventory push` decides before its first write: with --changed-only or --backup, the
 * live read and the rows that differ; the zeroing guard; the undo file. A resume holds to what
 * the interrupted run decided (its journal), never to a read of a store that run already changed.
 */
import { resolve } from 'node:path';
import { type AskDeps, confirmRisk } from '../../cmdutil/confirm.js';
import type { Deps } from '../../cmdutil/deps.js';
import type { ChangeCounts, ChangePlan } from '../../core/inventory/changes.js';
import type { CheckedFile } from '../../core/inventory/check.js';
import type { ZeroingRisk } from '../../core/inventory/zeroing.js';
import { UsageError } from '../../errors.js';
import { plural } from '../../words.js';
import type { PushJournal } from './push-journal.js';

/** The flags that shape the plan. */
export interface PlanOptions {
  changedOnly?: boolean;
  backup?: string;
  allowZeroing?: boolean;
}

/** What the push will do, as far as it is known before the first write. */
export interface PushPlan {
  /** From the live read (--changed-only, --backup): the counts and each changed SKU's values now. */
  changes?: ChangePlan;
  /** The zeroing guard's finding, when the push would zero too much. */
  zeroing?: ZeroingRisk;
}

/** Reads the store when the flags need it, records the selection in `state`, and judges the zeroing risk. */
export async function planPush(
  ctx: Pick<Deps, 'io' | 'client' | 'signal'>,
  file: CheckedFile,
  options: PlanOptions,
  state: PushJournal,
): Promise<PushPlan> {
  const { exactZeroingRisk, fileZeroingRisk } = await import('../../core/inventory/zeroing.js');
  if (state.resumed) {
    holdToFirstBackup(ctx, options.backup, state.decisions.backup);
    // The interrupted run passed the guard (or had nothing to guard against) on this very file.
    return {};
  }
  if (!options.changedOnly && !options.backup) {
    return { zeroing: fileZeroingRisk(file.zeroQuantityRows, file.rowCount) };
  }
  const { compareFileWithStore } = await import('./live-read.js');
  const changes = await compareFileWithStore(ctx, file);
  const { counts } = changes;
  if (options.changedOnly) {
    state.decisions.selection = { send: changes.changedLines, unknown: changes.unknownLines };
  }
  ctx.io.messages.info(planLine(counts, Boolean(options.changedOnly), state.batchSize));
  return {
    changes,
    zeroing: exactZeroingRisk(counts.quantity_to_zero, counts.rows - counts.not_in_store),
  };
}

/** "37 of 2,000 rows differ from the store (…): 1 request instead of 20, 19 units of daily write quota saved." */
export function planLine(counts: ChangeCounts, changedOnly: boolean, batchSize: number): string {
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
 * Stops before sending when the push would zero too much: asks on a terminal, refuses without
 * one (exit 2) naming the count and --allow-zeroing. Returns whether the guard was passed.
 */
export async function guardZeroing(
  ctx: AskDeps,
  risk: ZeroingRisk | undefined,
  allowed: boolean,
): Promise<boolean> {
  if (!risk) return false;
  const { describeZeroing } = await import('../../core/inventory/zeroing.js');
  const what = describeZeroing(risk);
  if (allowed) {
    ctx.io.messages.warn(`${what}; going on (--allow-zeroing)`);
    return true;
  }
  await confirmRisk(
    ctx,
    `${capitalized(what)}: that takes them off every channel. Push anyway?`,
    `${what}; nothing was sent. A broken export often looks like this; if it is meant, run again with --allow-zeroing`,
    'push',
  );
  return true;
}

/**
 * --backup on a resume: the store already holds part of the push, so a read now is no undo.
 * The file the first run wrote is the undo; any other path is refused (exit 2).
 */
function holdToFirstBackup(
  ctx: Pick<Deps, 'io'>,
  asked: string | undefined,
  written: string | undefined,
): void {
  if (written && (!asked || resolve(asked) === written)) {
    ctx.io.messages.info(
      `The store's values from before this push are in ${written} (written by the first run).`,
    );
    return;
  }
  if (!asked) return;
  throw new UsageError(
    written
      ? `the interrupted push wrote its backup to ${written}; resume with --backup ${written} (or without --backup): the store already holds part of the push, so a new read would not undo it`
      : 'the interrupted push took no backup, and the store already holds part of it, so a read now would not undo it; resume without --backup',
  );
}

function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
