import type { Command } from 'commander';
import { confirmDestructive } from '../../cmdutil/confirm.js';
import type { Context } from '../../cmdutil/context.js';
import { AmbiguousWriteError, ApiError } from '../../errors.js';
import { plural } from '../../words.js';

/** `svc products delete ID`: asks on a terminal; elsewhere needs --yes. */
export function deleteCommand(parent: Command, ctx: Context, run = runDelete): Command {
  return parent
    .command('delete')
    .description('delete a product; its listings are delisted from their channels')
    .argument('<id>', 'product id (prod_…)')
    .addHelpText(
      'after',
      '\nExamples:\n  svc products delete prod_123\n  svc products delete prod_123 --yes   # in scripts\n',
    )
    .action(async (id: string) => run(ctx, id));
}

/** Runs `svc products delete` once its flags are parsed. */
export async function runDelete(ctx: Context, id: string): Promise<void> {
  if (!(await confirmDelete(ctx, id))) {
    ctx.io.messages.info('Nothing deleted.');
    return;
  }
  const client = await ctx.client();
  const { deleteProduct, getProduct } = await import('../../client/resources/products.js');
  let deleted: { id: string; object: string; deleted: boolean };
  try {
    deleted = await deleteProduct(client, id);
  } catch (error) {
    if (!(error instanceof AmbiguousWriteError)) throw error;
    // The answer was lost: the product being gone now means the delete was applied.
    const gone = await getProduct(client, id).then(
      () => false,
      (readBack: unknown) => readBack instanceof ApiError && readBack.status === 404,
    );
    if (!gone) throw error;
    deleted = { id, object: 'product', deleted: true };
  }
  await ctx.io.printer.item(deleted, {
    summary: (answer) => `Deleted product ${answer.id}`,
  });
}

/** Yes with --yes; a question on a terminal naming what goes; without one, a refusal (exit 2). */
function confirmDelete(ctx: Context, id: string): Promise<boolean> {
  return confirmDestructive(ctx, { verb: 'delete', target: `product ${id}` }, async () => {
    const { getProduct } = await import('../../client/resources/products.js');
    const product = await getProduct(await ctx.client(), id);
    const listed = (product.listings ?? []).filter((listing) => listing.status !== 'delisted').length;
    const note = listed > 0 ? ` Its ${listed} ${plural(listed, 'listing')} will be delisted.` : '';
    return `Delete product ${id} ${JSON.stringify(product.title)}?${note}`;
  });
}
