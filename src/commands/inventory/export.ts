import { defineCommand } from '../../cmdutil/define.js';
import type { Deps } from '../../cmdutil/deps.js';
import { fixedFields } from '../../cmdutil/fields.js';
import { withCrawlProgress } from '../../cmdutil/list-command.js';
import { LiveStockRead, sampleStock } from '../../core/inventory/live-stock.js';
import { stockView, stockWithTitlesView } from '../../output/views/inventory.js';
import { plural } from '../../words.js';

/** Flags of `svc inventory export`. */
export interface ExportOptions {
  withTitles?: boolean;
}

/** `svc inventory export`: every SKU's quantity and price, in the CSV that push reads. */
export const command = defineCommand<ExportOptions>({
  path: ['inventory', 'export'],
  rank: 3,
  description: 'write every SKU with its quantity and price, in the CSV format `inventory push` reads',
  flags: [
    {
      flags: '--with-titles',
      description:
        "add each SKU's product title and variant options (columns push leaves unread, so the file still pushes back)",
    },
  ],
  takes: {
    list: true,
    writes: 'csv whatever the terminal (the file push reads); json, ndjson or tsv when asked',
  },
  fields: fixedFields(['sku', 'quantity', 'price', 'title', 'options']),
  notes: [
    'Every SKU appears exactly once, even while a push runs elsewhere: products changed during the',
    'read are caught by closing passes over the head of the list. Snapshot before a push, and push',
    'the snapshot back to undo it (or let the push take its own undo file with --backup).',
    '--with-titles adds title and options (`Size: M / Color: Red`) for people editing the file in a',
    'spreadsheet; push names them as ignored. --excel adds the BOM Excel needs, and prefixes a cell',
    "that starts like a formula (=, +, -, @) with ', which push would read as part of such a SKU.",
  ],
  examples: [
    'svc inventory export > before.csv',
    'svc inventory push before.csv     # restores the snapshot',
    'svc inventory export --with-titles --excel > stock.csv   # to edit in a spreadsheet, then push',
  ],
  run: async (options, deps) => runExport(deps, options),
});

/** Prints every SKU (or, with --limit N, those of the first N products), then says what a read caught. */
async function runExport(
  deps: Pick<Deps, 'io' | 'globals' | 'client' | 'signal'>,
  options: ExportOptions,
): Promise<void> {
  const client = await deps.client();
  const { limit } = deps.globals;
  // --fields title (or options) asks for them as --with-titles does.
  const named = (deps.globals.fields ?? []).some((field) => field === 'title' || field === 'options');
  const titles = Boolean(options.withTitles) || named;
  // A whole export is settled (every SKU once, even while a push runs); --limit N asks for a sample.
  const read = new LiveStockRead(client, deps.signal);
  const sample = limit === undefined ? undefined : sampleStock(client, limit, { titles });
  // A whole export crawls every product: counted while it goes, to a file or a CI log.
  const rows = sample ?? withCrawlProgress(deps, read.rows({ titles }), 'SKUs');
  await deps.io.printerDefaulting('csv').list(rows, titles ? stockWithTitlesView : stockView);
  // A cut list says so wherever it goes (a file most of all): a sample must not pass for the snapshot.
  if (sample?.hasMore)
    deps.io.messages.info(
      `Only the SKUs of the first ${limit} ${plural(limit ?? 0, 'product')}; the store holds more: drop --limit for every SKU.`,
    );
  const caught = read.caughtByClosingPasses;
  if (caught > 0) {
    deps.io.messages.info(
      `${caught} ${plural(caught, 'product')} changed during the export; ${read.closingPasses} closing ${plural(read.closingPasses, 'pass', 'passes')} listed ${plural(caught, 'it', 'them')} too.`,
    );
  }
}
