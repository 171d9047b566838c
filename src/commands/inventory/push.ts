import {
  type BulkDeps,
  type BulkPlan,
  type FollowUp,
  runBulk,
  showDryRun,
} from '../../cmdutil/bulk-command.js';
import type { BulkSession } from '../../cmdutil/bulk-session.js';
import { confirmRisk } from '../../cmdutil/confirm.js';
import { defineCommand } from '../../cmdutil/define.js';
import type { Deps } from '../../cmdutil/deps.js';
import { followMany, type WaitFlags, waitFlags } from '../../cmdutil/follow.js';
import { checkStockFile, DECIMAL_COMMA_FLAG, storeReadDeps } from '../../cmdutil/inventory/read-file.js';
import { integerFlag } from '../../cmdutil/parse.js';
import { rerunCommand } from '../../cmdutil/rerun.js';
import { configDir } from '../../config/config-store.js';
import { CheckedCopy } from '../../config/journal-files.js';
import { BATCH_MAX_ITEMS } from '../../contract/contract.js';
import type { CheckedFile } from '../../core/inventory/check.js';
import { pushVerdicts, storeStock } from '../../core/inventory/dry-verdicts.js';
import { InventoryPush } from '../../core/inventory/push.js';
import { offlineDryRun, zeroingWords } from '../../core/inventory/push-plan.js';
import type { ZeroingRisk } from '../../core/inventory/zeroing.js';
import { endOfFollow } from '../../core/operations/follow.js';
import { writeStockFile } from '../../output/stock-file.js';
import { largestChangesLines } from '../../output/views/inventory.js';
import { plural } from '../../words.js';

/** Flags of `svc inventory push`. */
export interface PushOptions extends WaitFlags {
  /** --batch-size as given; 100 without it, and a resume's journal holds its own. */
  batchSize?: number;
  dryRun?: boolean;
  resume?: boolean;
  report?: string;
  map?: string;
  ignore?: string;
  decimalComma?: boolean;
  encoding?: string;
  changedOnly?: boolean;
  backup?: string;
  allowZeroing?: boolean;
}

/** `svc inventory push FILE.csv`. */
export const command = defineCommand<PushOptions & { file: string }>({
  path: ['inventory', 'push'],
  rank: 1,
  description: 'set quantity and price for every SKU in a CSV file, as fast as the rate limit allows',
  args: [
    { name: 'file', description: 'CSV with a header: sku, quantity and/or price (- for standard input)' },
  ],
  flags: [
    {
      flags: '--batch-size <n>',
      description: `SKUs per request, 1 to ${BATCH_MAX_ITEMS} (default ${BATCH_MAX_ITEMS}; --resume keeps the interrupted push's)`,
      parse: integerFlag('--batch-size', 1, BATCH_MAX_ITEMS),
    },
    { flags: '--map <pairs>', description: 'rename columns, e.g. sku=Item,quantity=Qty,price=Price' },
    {
      flags: '--ignore <columns>',
      description:
        'columns left unread, e.g. Note,Qty2, even one named quantity or price (a column that looks like quantity or price otherwise stops the run)',
    },
    DECIMAL_COMMA_FLAG,
    {
      flags: '--encoding <name>',
      description:
        'utf-8 or latin1 (Windows-1252); default UTF-8, or Windows-1252 for a file that is not UTF-8 but is (as Excel saves "CSV")',
    },
    { flags: '--dry-run', description: 'check the file and show what would be sent; send nothing' },
    {
      flags: '--resume',
      description: 'continue an interrupted push of the same file: send only unconfirmed batches',
    },
    {
      flags: '--changed-only',
      description:
        'read the store first (no write quota) and send only the rows that differ; quota spent: ceil(changed / 100)',
    },
    {
      flags: '--backup <out.csv>',
      description:
        "before the first write, save the store's values of every SKU the push changes (push that file to undo)",
    },
    {
      flags: '--allow-zeroing',
      description: 'go on when the push would set more than 20% of its SKUs to quantity 0',
    },
    {
      flags: '--report <out.csv>',
      description:
        'write line,key,status,code,message for every SKU (.json, .ndjson: as JSON); with --dry-run, the verdicts',
    },
    ...waitFlags('follow the operations until the channels answered; name channel failures per SKU'),
  ],
  takes: { confirms: true },
  notes: [
    'The whole file is checked before the first request: any bad line stops the run (exit 2)',
    'and nothing is sent (--report then lists every bad line). An empty cell leaves that value',
    'unchanged. The columns read and left out are named first; a left-out column that looks like',
    'quantity or price while no column is read as that field, a header named twice, text that is',
    'not UTF-8, and control or invisible characters or edge spaces in a SKU stop the run. Rows',
    'whose cells are all empty (;;;; from a spreadsheet) are skipped and counted. "." is always a',
    'decimal point; in a ";"-separated file, or with --decimal-comma, a single "," is one too',
    '(28,37); a thousands separator (1.234,56) is refused.',
    '',
    'A push that would set more than 20% of the SKUs it covers to quantity 0 (counted exactly',
    'after the read of --changed-only or --backup; else judged on a file of 50 rows or more) asks on',
    'a terminal and stops without one (exit 2); --allow-zeroing lets it go on.',
    '',
    'With a live key at a terminal (no --yes), push asks before sending. It reads the store first',
    '(no write quota), as `inventory diff` does, and shows beside the cost the ten largest changes,',
    'zeroings first; --yes, --no-input, CI=true or no terminal skip the question and that read.',
  ],
  examples: [
    'svc inventory push stock.csv',
    'svc inventory push stock.csv --dry-run',
    'svc inventory push stock.csv --changed-only --backup before.csv',
    'svc inventory push before.csv --changed-only   # undoes the push above',
    'svc inventory push stock.csv --resume      # after a quota stop, Ctrl-C or a CI timeout',
    'svc inventory push export.csv --map sku=Item,quantity=Qty --report push-report.csv',
    'svc inventory push excel.csv --map quantity=Qty --ignore Price   # a ";" file, decimal commas, quantities only',
  ],
  run: ({ file, ...options }, deps) => runPush(deps, file, options),
});

/** What a push uses. */
type PushRunDeps = BulkDeps & Pick<Deps, 'env' | 'credentials' | 'atEnd'>;

/** Checks the whole file, then pushes it (or only what differs from the store) in batches and reports per-SKU outcomes. */
async function runPush(deps: PushRunDeps, path: string, flags: PushOptions): Promise<void> {
  // A dry run sends nothing, so it keeps no copy; a resume plan needs the journal, not a copy.
  const copy = flags.dryRun ? undefined : CheckedCopy.create(configDir(deps.env));
  let file: CheckedFile;
  try {
    file = await checkStockFile(deps, path, flags, copy?.write);
  } catch (error) {
    copy?.discard();
    throw error;
  }
  copy?.close();
  // A plain dry run needs neither the store nor the journal: it stays offline.
  if (flags.dryRun && !flags.resume && !flags.changedOnly && !flags.backup) {
    const dryRun = offlineDryRun(file, flags.batchSize ?? BATCH_MAX_ITEMS);
    if (!flags.report) return showDryRun(deps, dryRun);
    // Its report says what the live push would record of each row: that needs the store's SKUs.
    const live = await storeStock(await deps.client(), deps.signal);
    return showDryRun(deps, { ...dryRun, rows: pushVerdicts(file, live) }, flags.report);
  }
  // A live push asked at a terminal reads the store first, to show its largest changes beside the question.
  const preview = !flags.dryRun && !deps.globals.yes && deps.io.canPrompt && (await deps.client()).live;
  const push = await InventoryPush.open(
    file,
    copy,
    { ...flags, preview, fromStdin: path === '-' },
    {
      ...storeReadDeps(deps),
      client: () => deps.client(),
      credentials: () => deps.credentials(),
      configDir: configDir(deps.env),
      now: deps.now,
      saveBackup: async (backup, rows) => writeStockFile(backup, rows),
    },
  );
  try {
    if (!flags.dryRun && (await guardZeroing(deps, push.zeroing, Boolean(flags.allowZeroing))))
      push.acceptZeroing();
    const found = push.largestChanges;
    const details = found && largestChangesLines(found.largest, found.changed);
    await runBulk(deps, { ...bulkPlan(deps, push, flags), details, file: path }, flags);
  } finally {
    push.release();
  }
}

/**
 * Stops before sending when the push would zero too much: asks on a terminal, refuses without
 * one (exit 2) naming the count and --allow-zeroing. Returns whether the guard was passed.
 */
async function guardZeroing(
  deps: BulkDeps,
  risk: ZeroingRisk | undefined,
  allowed: boolean,
): Promise<boolean> {
  if (!risk) return false;
  const words = zeroingWords(risk);
  if (allowed) {
    deps.io.messages.warn(words.goingOn);
    return true;
  }
  await confirmRisk(deps, words.question, words.refusal, 'push');
  return true;
}

/** The push as the bulk frame runs it; with --wait, the channels' verdict before the summary. */
function bulkPlan(deps: BulkDeps, push: InventoryPush, flags: PushOptions): BulkPlan {
  return {
    noun: 'SKUs',
    total: push.total,
    items: () => push.items(),
    report: flags.report,
    dryRun: async () => {
      // Its report says what the live push would record of each row.
      const rows = flags.report ? push.verdicts() : undefined;
      await showDryRun(deps, { ...(await push.dryRun()), rows }, flags.report);
    },
    confirmation: push.confirmation,
    action: 'push',
    send: (session, client) => push.send(client, session),
    verb: 'Pushed',
    follow: flags.wait ? (session) => followPush(deps, push, session, flags.timeout) : undefined,
    stopNote: async () => {
      const { confirmed, total, resumeSource } = push.resumePoint;
      const resume = rerunCommand(deps.argv, { add: ['--resume'], stdinPath: resumeSource });
      return `stopped with ${confirmed} of ${total} batches confirmed; \`${resume}\` sends only the rest`;
    },
  };
}

/** --wait: follows the operations the push started until the channels answered; a refused SKU ends failed. */
async function followPush(
  deps: BulkDeps,
  push: InventoryPush,
  session: BulkSession,
  timeoutSeconds: number,
): Promise<FollowUp | undefined> {
  const operations = push.operationIds.length;
  if (operations === 0) return undefined;
  deps.io.messages.info(
    `Waiting for ${operations} ${plural(operations, 'operation')} to reach the channels…`,
  );
  const followed = await followMany(deps, await deps.client(), push.operationIds, {
    timeoutSeconds,
    createdAfter: push.followFrom,
  });
  const { refused, json, failure, done } = await push.followUp(followed);
  // A SKU a channel refused ends failed, with the channel's code: the report's final state.
  session.revise(refused);
  return {
    json,
    end: () => {
      endOfFollow(followed, failure);
      deps.io.messages.info(done);
    },
  };
}
