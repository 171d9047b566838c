import type { Command } from 'commander';
import type { Context } from '../../cmdutil/context.js';

/** One exported SKU, in the columns `inventory push` reads. */
interface StockRow {
  sku: string;
  quantity?: number | null;
  price?: string | null;
}

/** `svc inventory export`: every SKU's quantity and price, in the CSV that push reads. */
export function exportCommand(parent: Command, ctx: Context, run = runExport): Command {
  return parent
    .command('export')
    .description('write every SKU with its quantity and price, in the CSV format `inventory push` reads')
    .addHelpText(
      'after',
      '\nSnapshot before a push, and push the snapshot back to undo it.\n\nExamples:\n  svc inventory export > before.csv\n  svc inventory push before.csv     # restores the snapshot\n',
    )
    .action(async () => run(ctx));
}

/** Runs `svc inventory export` once its flags are parsed. */
export async function runExport(ctx: Context): Promise<void> {
  const { listProducts } = await import('../../api/resources/products.js');
  const client = await ctx.client();
  const products = listProducts(client, {}, ctx.globals.limit ?? 'all');
  async function* stockRows(): AsyncGenerator<StockRow> {
    for await (const product of products) {
      for (const variant of product.variants ?? []) {
        yield { sku: variant.sku, quantity: variant.quantity, price: variant.price };
      }
    }
  }
  await ctx.printerDefaulting('csv').list(stockRows(), {
    columns: [
      { header: 'SKU', cell: (r) => r.sku },
      { header: 'QUANTITY', cell: (r) => String(r.quantity ?? '') },
      { header: 'PRICE', cell: (r) => r.price ?? '' },
    ],
    fields: ['sku', 'quantity', 'price'],
  });
}
