import type { Command } from 'commander';
import type { ApiClient } from '../../api/client.js';
import type { Context } from '../../cmdutil/context.js';
import type { LiveStock } from '../../core/inventory/live-stock.js';
import { plural } from '../../words.js';

/** `svc inventory export`: every SKU's quantity and price, in the CSV that push reads. */
export function exportCommand(parent: Command, ctx: Context, run = runExport): Command {
  return parent
    .command('export')
    .description('write every SKU with its quantity and price, in the CSV format `inventory push` reads')
    .addHelpText(
      'after',
      '\nEvery SKU appears exactly once, even while a push runs elsewhere: products changed during the\nread are caught by closing passes over the head of the list. Snapshot before a push, and push\nthe snapshot back to undo it (or let the push take its own undo file with --backup).\n\nExamples:\n  svc inventory export > before.csv\n  svc inventory push before.csv     # restores the snapshot\n',
    )
    .action(async () => run(ctx));
}

/** Runs `svc inventory export` once its flags are parsed. */
export async function runExport(ctx: Context): Promise<void> {
  const client = await ctx.client();
  const { limit } = ctx.globals;
  // A whole export is settled (every SKU once, even while a push runs); --limit N asks for a sample.
  const { LiveStockRead } = await import('../../core/inventory/live-stock.js');
  const read = new LiveStockRead(client, ctx.signal);
  const rows = limit === undefined ? read.rows() : limitedRows(client, limit);
  await ctx.printerDefaulting('csv').list(rows, {
    columns: [
      { header: 'SKU', cell: (r) => r.sku },
      { header: 'QUANTITY', cell: (r) => String(r.quantity ?? '') },
      { header: 'PRICE', cell: (r) => r.price ?? '' },
    ],
    fields: ['sku', 'quantity', 'price'],
  });
  const caught = read.caughtByClosingPasses;
  if (caught > 0) {
    ctx.messages.info(
      `${caught} ${plural(caught, 'product')} changed during the export; ${read.closingPasses} closing ${plural(read.closingPasses, 'pass', 'passes')} listed ${plural(caught, 'it', 'them')} too.`,
    );
  }
}

/** The SKUs of the first `limit` products (a sample, not a snapshot). */
async function* limitedRows(client: ApiClient, limit: number): AsyncGenerator<LiveStock> {
  const { listProducts } = await import('../../api/resources/products.js');
  for await (const product of listProducts(client, {}, limit)) {
    for (const variant of product.variants ?? []) {
      yield { sku: variant.sku, quantity: variant.quantity ?? null, price: variant.price ?? null };
    }
  }
}
