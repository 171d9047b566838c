import type { Command } from 'commander';
import type { Context } from '../../cmdutil/context.js';
import { integerFlag } from '../../cmdutil/parse.js';
import { PRICE_PATTERN, QUANTITY_MAX } from '../../contract/contract.js';
import { ApiError, UsageError } from '../../errors.js';

/** `svc inventory set SKU [--quantity N] [--price P]`. */
export function setCommand(parent: Command, ctx: Context, run = runSet): Command {
  return parent
    .command('set')
    .description('set the quantity and/or price of one SKU')
    .argument('<sku>', 'the variant SKU')
    .option(
      '--quantity <n>',
      `whole number from 0 to ${QUANTITY_MAX}`,
      integerFlag('--quantity', 0, QUANTITY_MAX),
    )
    .option('--price <p>', 'decimal such as 12.50')
    .addHelpText(
      'after',
      '\nExamples:\n  svc inventory set TSHIRT-RED-M --quantity 12\n  svc inventory set TSHIRT-RED-M --price 19.90 --quantity 0\n',
    )
    .action(async (sku: string, options: { quantity?: number; price?: string }) => run(ctx, sku, options));
}

/** Runs `svc inventory set` once its flags are parsed. */
export async function runSet(
  ctx: Context,
  sku: string,
  options: { quantity?: number; price?: string },
): Promise<void> {
  if (options.quantity === undefined && options.price === undefined) {
    throw new UsageError('give --quantity, --price or both, e.g. svc inventory set SKU --quantity 5');
  }
  if (options.price !== undefined && !PRICE_PATTERN.test(options.price)) {
    throw new UsageError(`--price takes a non-negative decimal such as 12.50, got "${options.price}"`);
  }
  const { setInventory } = await import('../../client/resources/inventory.js');
  try {
    const item = await setInventory(await ctx.client(), { sku, ...options });
    await ctx.io.printer.item(item, {
      summary: (i) =>
        `${i.sku}: quantity ${i.quantity ?? '?'}, price ${i.price ?? '?'}${i.sync?.operation_id ? ` (operation ${i.sync.operation_id})` : ''}`,
    });
  } catch (error) {
    // The service's words for an unknown SKU are not pinned; these are, and the 404's advice stays.
    if (error instanceof ApiError && error.status === 404) error.message = `SKU ${sku} is not in the catalog`;
    throw error;
  }
}
