import { defineCommand } from '../../cmdutil/define.js';
import type { Deps } from '../../cmdutil/deps.js';
import { checkStockFile, DECIMAL_COMMA_FLAG, storeReadDeps } from '../../cmdutil/inventory/read-file.js';
import { fromArray } from '../../cmdutil/list-command.js';
import { integerFlag } from '../../cmdutil/parse.js';
import { BATCH_MAX_ITEMS } from '../../contract/contract.js';
import { diffSummary, type RowChange } from '../../core/inventory/changes.js';
import { compareFileWithStore } from '../../core/inventory/live-read.js';
import { DifferencesFound } from '../../errors.js';
import { changesView, diffSummaryLine } from '../../output/views/inventory.js';
import { counted, plural } from '../../words.js';

/** Flags of `svc inventory diff`. */
export interface DiffOptions {
  batchSize: number;
  map?: string;
  ignore?: string;
  decimalComma?: boolean;
  encoding?: string;
  exitCode?: boolean;
}

/** `svc inventory diff FILE.csv`. */
export const command = defineCommand<DiffOptions & { file: string }>({
  path: ['inventory', 'diff'],
  rank: 4,
  description: "compare a CSV file with the store's live quantities and prices; reads only, no write quota",
  args: [{ name: 'file', description: 'CSV as `inventory push` reads it (- for standard input)' }],
  flags: [
    { flags: '--map <pairs>', description: 'rename columns, e.g. sku=Item,quantity=Qty,price=Price' },
    {
      flags: '--ignore <columns>',
      description: 'columns left unread, e.g. Note,Qty2, even one named quantity or price',
    },
    DECIMAL_COMMA_FLAG,
    {
      flags: '--encoding <name>',
      description:
        'utf-8 or latin1 (Windows-1252); default UTF-8, or Windows-1252 for a file that is not UTF-8 but is',
    },
    {
      flags: '--batch-size <n>',
      description: `SKUs per request of the push it prices (1 to ${BATCH_MAX_ITEMS})`,
      parse: integerFlag('--batch-size', 1, BATCH_MAX_ITEMS),
      default: BATCH_MAX_ITEMS,
    },
    {
      flags: '--exit-code',
      description:
        'exit 6 when the file differs from the store, SKUs it lacks included (0: no change; 1: could not compare)',
    },
  ],
  notes: [
    'The file gets the checks `inventory push` makes; the store is read as `inventory export` reads',
    'it. Each SKU the file would change is listed with its value now and after, then a summary:',
    'unchanged, quantity up, down and to 0, price changed, SKUs the store does not have, and the',
    'write quota a push of only the changes (`push --changed-only`) would spend. Prices compare as',
    'amounts (12.5 is 12.50). Exit 0; with --exit-code, 6 when anything differs (a change, or a SKU',
    'the store does not have) and 0 when nothing does. Exit 1 always means it could not compare (a',
    'service or network error), so a script tells "differs" from "failed".',
  ],
  examples: [
    'svc inventory diff stock.csv',
    'svc inventory diff stock.csv -o csv > changes.csv',
    'svc inventory diff stock.csv --exit-code; [ $? -eq 6 ] && svc inventory push stock.csv --changed-only',
  ],
  run: ({ file, ...options }, deps) => runDiff(deps, file, options),
});

/** Checks the file, reads the store, prints each change and the summary. */
async function runDiff(
  deps: Pick<Deps, 'io' | 'client' | 'signal' | 'env' | 'atEnd' | 'globals'>,
  path: string,
  options: DiffOptions,
): Promise<void> {
  const file = await checkStockFile(deps, path, options);
  const changes: RowChange[] = [];
  const client = await deps.client();
  const { counts } = await compareFileWithStore(client, file, storeReadDeps(deps), (change) =>
    changes.push(change),
  );
  const summary = diffSummary(counts, options.batchSize);
  if (deps.io.wantsJson) await deps.io.printer.item({ summary, changes });
  else await deps.io.printer.list(fromArray(changes), changesView);
  // The verdict ("nothing to push") is said in every output mode.
  deps.io.messages.info(diffSummaryLine(summary));
  if (options.exitCode && counts.changed + counts.not_in_store > 0) {
    throw new DifferencesFound(
      `${counted(counts.changed + counts.not_in_store, 'row')} ${plural(counts.changed + counts.not_in_store, 'differs', 'differ')} from the store`,
    );
  }
}
