import type { Command } from 'commander';
import type { ApiClient } from '../../client/client.js';
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
  const sample = limit === undefined ? undefined : await limitedRows(client, limit);
  const rows = sample ?? read.rows();
  await ctx.io.printerDefaulting('csv').list(rows, {
    columns: [
      { header: 'SKU', cell: (r) => r.sku },
      { header: 'QUANTITY', cell: (r) => String(r.quantity ?? '') },
      { header: 'PRICE', cell: (r) => r.price ?? '' },
    ],
    fields: ['sku', 'quantity', 'price'],
  });
  // A cut list says so wherever it goes (a file most of all): a sample must not pass for the snapshot.
  if (sample?.hasMore)
    ctx.io.messages.info(
      `Only the SKUs of the first ${limit} ${plural(limit ?? 0, 'product')}; the store holds more: drop --limit for every SKU.`,
    );
  const caught = read.caughtByClosingPasses;
  if (caught > 0) {
    ctx.io.messages.info(
      `${caught} ${plural(caught, 'product')} changed during the export; ${read.closingPasses} closing ${plural(read.closingPasses, 'pass', 'passes')} listed ${plural(caught, 'it', 'them')} too.`,
    );
  }
}

/**
 * The SKUs of the first `limit` products (a sample, not a snapshot); once read, `hasMore` says
 * whether the store holds more products than the limit let through.
 */
async function limitedRows(
  client: ApiClient,
  limit: number,
): Promise<AsyncIterable<LiveStock> & { readonly hasMore?: boolean }> {
  const { listProducts } = await import('../../client/resources/products.js');
  const products = listProducts(client, {}, limit);
  async function* rows(): AsyncGenerator<LiveStock> {
    for await (const product of products) {
      for (const variant of product.variants ?? []) {
        yield { sku: variant.sku, quantity: variant.quantity ?? null, price: variant.price ?? null };
      }
    }
  }
  return {
    [Symbol.asyncIterator]: rows,
    get hasMore() {
      return products.hasMore;
    },
  };
}
