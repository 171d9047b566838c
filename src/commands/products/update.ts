import type { Command } from 'commander';
import type { Context } from '../../cmdutil/context.js';
import { timeFlag } from '../../cmdutil/parse.js';
import type { ProductUpdate } from '../../contract/schemas/product.js';
import { ApiError, UsageError } from '../../errors.js';

/** Flags of `svc products update`. */
export interface UpdateOptions {
  file?: string;
  set?: string[];
  expectedUpdatedAt?: string;
}

/** `svc products update ID (--file F | --set k=v …) [--expected-updated-at T]`. */
export function updateCommand(parent: Command, ctx: Context, run = runUpdate): Command {
  return parent
    .command('update')
    .description('change fields of a product; channels it is listed on are synced')
    .argument('<id>', 'product id (prod_…)')
    .option('--file <file>', 'JSON object with the fields to change (- for standard input)')
    .option(
      '--set <field=value>',
      'one field, repeatable: title=…, weight.value=1.5, tags=a,b, vat_rate=20',
      collect,
      [],
    )
    .option(
      '--expected-updated-at <time>',
      'the updated_at you last saw; the service refuses (412) if the product changed since',
      timeFlag('--expected-updated-at', ctx.now),
    )
    .addHelpText(
      'after',
      [
        '',
        'Fields left out stay as they are. In a --file, "variants" replaces the variant set (matched',
        'by SKU) and "images" the image list; for images, svc products images is easier.',
        '',
        'Examples:',
        '  svc products update prod_123 --set title="Blue mug" --set tags=kitchen,blue',
        '  svc products update prod_123 --set weight.value=12 --set weight.unit=oz',
        '  svc products update prod_123 --file changes.json --expected-updated-at 2026-11-01T09:00:00.000Z',
      ].join('\n'),
    )
    .action(async (id: string, options: UpdateOptions) => run(ctx, id, options));
}

function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

/** Checks the change locally, sends it, and explains a 412 with the time the product changed. */
export async function runUpdate(ctx: Context, id: string, options: UpdateOptions): Promise<void> {
  const sets = options.set ?? [];
  if (options.file !== undefined && sets.length > 0) {
    throw new UsageError('give either --file or --set, not both');
  }
  if (options.file === undefined && sets.length === 0) {
    throw new UsageError(
      'nothing to change: give --file F or --set field=value, e.g. --set title="Blue mug"',
    );
  }
  const { readProductBody, describeProduct, describeSync } = await import('./write-helpers.js');
  const { checkProductUpdate } = await import('../../core/products/check.js');
  const { bodyProblemsError } = await import('../../core/products/body-file.js');
  let body: Record<string, unknown>;
  if (options.file !== undefined) {
    body = await readProductBody(ctx, options.file, ['expected_updated_at']);
  } else {
    const { parseSetFields } = await import('../../core/products/set-fields.js');
    body = parseSetFields(sets);
  }
  if (options.expectedUpdatedAt !== undefined) body.expected_updated_at = options.expectedUpdatedAt;
  const checked = checkProductUpdate(body);
  if (!checked.ok) throw bodyProblemsError(options.file ?? '--set', checked.problems);
  const client = await ctx.client();
  const { getProduct, updateProduct } = await import('../../client/resources/products.js');
  try {
    const product = await updateProduct(client, id, body as ProductUpdate);
    await ctx.io.printer.item(product, {
      summary: (p) => `Updated ${describeProduct(p)}, updated_at ${p.updated_at}${describeSync(p)}`,
    });
  } catch (error) {
    if (!(error instanceof ApiError) || error.status !== 412) throw error;
    const current = await getProduct(client, id).catch(() => undefined);
    const when = current ? `it was updated at ${current.updated_at}` : error.message;
    const expected = body.expected_updated_at as string;
    const next = current ? `, then run again with --expected-updated-at ${current.updated_at}` : '';
    throw new ApiError(412, {
      ...error.toJSON().error,
      message: `product ${id} changed since ${expected}: ${when}; nothing was changed. Check it with \`svc products get ${id}\`${next}`,
    });
  }
}
