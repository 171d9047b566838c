import type { Command } from 'commander';
import type { Context } from '../../cmdutil/context.js';
import { fromArray } from '../../cmdutil/list-command.js';
import { integerFlag } from '../../cmdutil/parse.js';
import { BATCH_MAX_ITEMS } from '../../contract/contract.js';
import type { ChangeCounts, RowChange } from '../../core/inventory/changes.js';
import { DifferencesFound } from '../../errors.js';
import type { View } from '../../output/view.js';
import { counted, plural } from '../../words.js';

/** Flags of `svc inventory diff`. */
export interface DiffOptions {
  batchSize: number;
  map?: string;
  ignore?: string;
  encoding?: string;
  exitCode?: boolean;
}

/** One row per SKU a push would change, or that the store does not have. */
const changesView: View<RowChange> = {
  columns: [
    { header: 'LINE', cell: (c) => String(c.line) },
    { header: 'SKU', cell: (c) => c.sku },
    { header: 'CHANGE', cell: (c) => changeWords(c) },
    { header: 'QUANTITY', cell: (c) => fromTo(c.quantity_before, c.quantity_after) },
    { header: 'PRICE', cell: (c) => fromTo(c.price_before, c.price_after) },
  ],
  fields: [
    'line',
    'sku',
    'status',
    'quantity',
    'quantity_before',
    'quantity_after',
    'price_before',
    'price_after',
  ],
};

/** `svc inventory diff FILE.csv`. */
export function diffCommand(parent: Command, ctx: Context, run = runDiff): Command {
  return parent
    .command('diff')
    .description("compare a CSV file with the store's live quantities and prices; reads only, no write quota")
    .argument('<file>', 'CSV as `inventory push` reads it (- for standard input)')
    .option('--map <pairs>', 'rename columns, e.g. sku=Item,quantity=Qty,price=Price')
    .option('--ignore <columns>', 'columns meant to be left out, e.g. Note,Qty2')
    .option('--encoding <name>', 'utf-8 (default) or latin1 (Windows-1252)')
    .option(
      '--batch-size <n>',
      `SKUs per request of the push it prices (1 to ${BATCH_MAX_ITEMS})`,
      integerFlag('--batch-size', 1, BATCH_MAX_ITEMS),
      BATCH_MAX_ITEMS,
    )
    .option(
      '--exit-code',
      'exit 6 when the file differs from the store, SKUs it lacks included (0: no change; 1: could not compare)',
    )
    .addHelpText(
      'after',
      [
        '',
        'The file gets the checks `inventory push` makes; the store is read as `inventory export` reads',
        'it. Each SKU the file would change is listed with its value now and after, then a summary:',
        'unchanged, quantity up, down and to 0, price changed, SKUs the store does not have, and the',
        'write quota a push of only the changes (`push --changed-only`) would spend. Prices compare as',
        'amounts (12.5 is 12.50). Exit 0; with --exit-code, 6 when anything differs (a change, or a SKU',
        'the store does not have) and 0 when nothing does. Exit 1 always means it could not compare (a',
        'service or network error), so a script tells "differs" from "failed".',
        '',
        'Examples:',
        '  svc inventory diff stock.csv',
        '  svc inventory diff stock.csv -o csv > changes.csv',
        '  svc inventory diff stock.csv --exit-code; [ $? -eq 6 ] && svc inventory push stock.csv --changed-only',
      ].join('\n'),
    )
    .action(async (file: string, options: DiffOptions) => run(ctx, file, options));
}

/** Checks the file, reads the store, prints each change and the summary. */
export async function runDiff(ctx: Context, path: string, options: DiffOptions): Promise<void> {
  const { checkStockFile } = await import('./read-file.js');
  const { compareFileWithStore } = await import('./live-read.js');
  const file = await checkStockFile(ctx, path, options);
  const changes: RowChange[] = [];
  const { counts } = await compareFileWithStore(ctx, file, (change) => changes.push(change));
  const summary = diffSummary(counts, options.batchSize);
  if (ctx.io.wantsJson) await ctx.io.printer.item({ summary, changes });
  else {
    await ctx.io.printer.list(fromArray(changes), changesView);
    ctx.io.messages.info(summaryLine(summary));
  }
  if (options.exitCode && counts.changed + counts.not_in_store > 0) {
    throw new DifferencesFound(
      `${counted(counts.changed + counts.not_in_store, 'row')} ${plural(counts.changed + counts.not_in_store, 'differs', 'differ')} from the store`,
    );
  }
}

/** The counts with what a push of only the changes, and a full push, would spend. */
interface DiffSummary extends ChangeCounts {
  requests: number;
  write_quota: number;
  full_push_requests: number;
}

function diffSummary(counts: ChangeCounts, batchSize: number): DiffSummary {
  const requests = Math.ceil(counts.changed / batchSize);
  return {
    ...counts,
    requests,
    write_quota: requests,
    full_push_requests: Math.ceil(counts.rows / batchSize),
  };
}

/** "2,000 rows: 1,994 unchanged, 4 to change (…), 2 not in the store; …". */
function summaryLine(s: DiffSummary): string {
  const n = (value: number) => value.toLocaleString('en-US');
  const how = [
    s.quantity_up > 0 ? `${n(s.quantity_up)} quantity up` : '',
    s.quantity_down > 0 ? `${n(s.quantity_down)} down` : '',
    s.quantity_to_zero > 0 ? `${n(s.quantity_to_zero)} to 0` : '',
    s.price_changed > 0 ? `${n(s.price_changed)} price` : '',
  ].filter(Boolean);
  const parts = [
    `${n(s.unchanged)} unchanged`,
    `${n(s.changed)} to change${how.length > 0 ? ` (${how.join(', ')})` : ''}`,
    ...(s.not_in_store > 0 ? [`${n(s.not_in_store)} not in the store (a push fails them)`] : []),
  ];
  const cost =
    s.changed === 0
      ? 'nothing to push'
      : `\`push --changed-only\` would spend ${n(s.write_quota)} ${plural(s.write_quota, 'unit')} of daily write quota, a full push ${n(s.full_push_requests)}`;
  return `${n(s.rows)} ${plural(s.rows, 'row')}: ${parts.join(', ')}; ${cost}.`;
}

function changeWords(change: RowChange): string {
  if (change.status === 'not_in_store') return 'not in the store';
  const words = [];
  if (change.quantity)
    words.push(change.quantity === 'to_zero' ? 'quantity to 0' : `quantity ${change.quantity}`);
  if (change.price_after !== undefined) words.push('price');
  return words.join(', ');
}

function fromTo(before: number | string | null | undefined, after: number | string | undefined): string {
  if (after === undefined) return '';
  return `${before ?? '(none)'} → ${after}`;
}
