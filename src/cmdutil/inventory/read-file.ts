/**
 * What `inventory push` and `inventory diff` share: the whole-file check both run before
 * anything else, and how their read of the store shows on stderr.
 */

import type { CheckedFile } from '../../core/inventory/check.js';
import type { LiveReadDeps } from '../../core/inventory/live-read.js';
import type { FlagSpec } from '../define.js';
import type { Deps } from '../deps.js';
import type { InputDeps } from '../input-file.js';

/** How the inventory file is read (the flags push and diff share). */
export interface ReadFlags {
  map?: string;
  ignore?: string;
  decimalComma?: boolean;
  encoding?: string;
  report?: string;
  /** push --backup: written too, so it may not be the file read. */
  backup?: string;
}

/**
 * Checks the file at `path` (`-`: standard input, spooled) as push reads it, filling --report
 * with every bad line, then names the columns read and left out, and the empty rows skipped.
 * `onBytes` sees each checked byte.
 */
export async function checkStockFile(
  ctx: InputDeps & Pick<Deps, 'globals'>,
  path: string,
  flags: ReadFlags,
  onBytes?: (chunk: Buffer) => void,
): Promise<CheckedFile> {
  const { checkInventoryFile } = await import('../../core/inventory/check.js');
  const { describeColumns } = await import('../../core/csv/columns.js');
  const { readInputFile, showColumns } = await import('../input-check.js');
  const { map, ignore } = flags;
  // The program's own --decimal-comma (output) takes this command's flag when given after it.
  const decimalComma = flags.decimalComma || ctx.globals.decimalComma;
  const file = await readInputFile(
    ctx,
    path,
    { report: flags.report, encoding: flags.encoding, outputs: { '--backup': flags.backup } },
    (source, encoding) => checkInventoryFile(source, { map, ignore, decimalComma, encoding }, onBytes),
  );
  showColumns(ctx, describeColumns(file.plan), file.emptyRows);
  return file;
}

/** The `--decimal-comma` flag push and diff share. */
export const DECIMAL_COMMA_FLAG: FlagSpec = {
  flags: '--decimal-comma',
  description: 'a single "," in a price is its decimal separator (28,37); always so in a ";"-separated file',
};

/** The read of the store's live values says what it does on stderr, with progress (a live line on a terminal, a line every 30 s elsewhere). */
export function storeReadDeps(deps: Pick<Deps, 'io' | 'signal'>): LiveReadDeps {
  return {
    signal: deps.signal,
    notes: deps.io.messages,
    track: async (what) => {
      const { startProgress } = await import('../../output/progress.js');
      return startProgress(deps.io, { ...deps.io.progress, ...what });
    },
  };
}
