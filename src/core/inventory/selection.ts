/**
 * Which rows of a checked file a push sends: every row, or (`--changed-only`) only the lines
 * that differ from the store. The selection is made once, by the read before the first
 * write, and kept beside the resume journal: a resume sends the same rows, never a selection
 * made again against a store the first run already changed.
 */
import { ERROR_CODES } from '../../contract/contract.js';
import type { ItemOutcome } from '../outcomes.js';
import { type CheckedFile, inventoryBatches, type PlacedRow } from './check.js';

/** The rows a changed-only push sends, and those it fails without a request. */
export interface PushSelection {
  /** Lines of the rows to send, ascending. */
  send: readonly number[];
  /** Lines of the rows whose SKU the store does not have, ascending. */
  unknown: readonly number[];
}

/** The outcome of a row a changed-only push does not send because the store already holds it. */
export const UNCHANGED_NOTE = 'the store already holds these values; not sent';
/** The outcome of a row whose SKU the read before the push did not find. */
export const UNKNOWN_NOTE = 'the store has no variant with this SKU (the read before the push); not sent';
/** The outcome of a row whose batch the interrupted run already confirmed. */
export const CONFIRMED_NOTE = 'confirmed by the interrupted push; not sent again';

/** What a selection makes of one row: sent, failed as not in the store, or left out as unchanged. */
export type RowKind = 'send' | 'unknown' | 'unchanged';

/** Tells each line's kind, lines asked in ascending order (one pass over the file). */
export function lineKinds(selection: PushSelection): (line: number) => RowKind {
  const send = new AscendingLines(selection.send);
  const unknown = new AscendingLines(selection.unknown);
  return (line) => (send.has(line) ? 'send' : unknown.has(line) ? 'unknown' : 'unchanged');
}

/**
 * The rows to send in batches of `size`; with a selection, every other row is told to
 * `passedOver` as it streams by (unchanged, or failed as not in the store), so the summary
 * and the report account for every row of the file.
 */
export async function* selectedBatches(
  file: CheckedFile,
  size: number,
  selection: PushSelection | undefined,
  passedOver: (outcomes: ItemOutcome[]) => void,
): AsyncGenerator<PlacedRow[]> {
  if (!selection) {
    yield* inventoryBatches(file, size);
    return;
  }
  const kindOf = lineKinds(selection);
  let batch: PlacedRow[] = [];
  for await (const rows of inventoryBatches(file, 1000)) {
    const skipped: ItemOutcome[] = [];
    for (const row of rows) {
      const kind = kindOf(row.line);
      if (kind === 'send') {
        batch.push(row);
        if (batch.length === size) {
          if (skipped.length > 0) passedOver(skipped.splice(0));
          yield batch;
          batch = [];
        }
      } else if (kind === 'unknown') {
        skipped.push({
          index: row.index,
          line: row.line,
          key: row.sku,
          status: 'failed',
          code: ERROR_CODES.skuNotFound,
          message: UNKNOWN_NOTE,
          unsent: true,
        });
      } else {
        skipped.push({
          index: row.index,
          line: row.line,
          key: row.sku,
          status: 'unchanged',
          message: UNCHANGED_NOTE,
          unsent: true,
        });
      }
    }
    if (skipped.length > 0) passedOver(skipped);
  }
  if (batch.length > 0) yield batch;
}

/**
 * The first `count` rows a push sends, for its dry run: past the rows a selection leaves out
 * and the batches an earlier run confirmed (`isConfirmed`, by batch index).
 */
export async function firstRowsToSend(
  file: CheckedFile,
  size: number,
  selection: PushSelection | undefined,
  isConfirmed: (index: number) => boolean,
  count: number,
): Promise<PlacedRow[]> {
  const rows: PlacedRow[] = [];
  let index = 0;
  for await (const batch of selectedBatches(file, size, selection, () => {})) {
    if (!isConfirmed(index++)) rows.push(...batch.slice(0, count - rows.length));
    if (rows.length >= count) break;
  }
  return rows;
}

/** Membership of lines asked in ascending order: a cursor over a sorted list, no set of a million numbers. */
class AscendingLines {
  private next = 0;

  constructor(private readonly lines: readonly number[]) {}

  has(line: number): boolean {
    while (this.next < this.lines.length && this.lines[this.next] < line) this.next++;
    return this.lines[this.next] === line;
  }
}

/** Why a stored selection does not fit the file, or undefined when it does. */
export function selectionProblem(data: unknown, rowCount: number): string | undefined {
  if (typeof data !== 'object' || data === null) return 'not a JSON object';
  const { send, unknown } = data as Record<string, unknown>;
  for (const [name, lines] of [
    ['send', send],
    ['unknown', unknown],
  ] as const) {
    if (!Array.isArray(lines)) return `${name} is not a list`;
    let after = 1;
    for (const line of lines) {
      if (!Number.isInteger(line) || line <= after) return `${name} is not a list of ascending line numbers`;
      after = line;
    }
  }
  if ((send as number[]).length + (unknown as number[]).length > rowCount)
    return 'more lines than the file has rows';
  return undefined;
}
