import type { Command } from 'commander';
import type { Context } from '../../cmdutil/context.js';
import type { ProductInput } from '../../contract/schemas/product.js';

/** `svc products create --file F`. */
export function createCommand(parent: Command, ctx: Context, run = runCreate): Command {
  return parent
    .command('create')
    .description('create a product from a JSON file')
    .requiredOption(
      '--file <file>',
      'one JSON object: title required; variants, images and the other fields optional (- for standard input)',
    )
    .addHelpText(
      'after',
      [
        '',
        'The file is checked before sending: the fields, at most 20 images, and the option matrix',
        '(variants with options must cover every combination; the missing ones are named).',
        '',
        'Example file:',
        '  {"title": "Tee", "variants": [',
        '    {"sku": "TEE-S", "price": "19.00", "quantity": 5, "options": {"Size": "S"}},',
        '    {"sku": "TEE-M", "price": "19.00", "quantity": 3, "options": {"Size": "M"}}],',
        '   "images": [{"url": "https://example.com/tee.jpg"}]}',
        '',
        'Examples:',
        '  svc products create --file tee.json',
        '  svc products create --file - --json < tee.json',
      ].join('\n'),
    )
    .action(async (options: { file: string }) => run(ctx, options));
}

/** Runs `svc products create` once its flags are parsed. */
export async function runCreate(ctx: Context, options: { file: string }): Promise<void> {
  const { readProductBody, describeProduct } = await import('./write-helpers.js');
  const { checkProductInput } = await import('../../core/products/check.js');
  const { bodyProblemsError } = await import('../../core/products/body-file.js');
  const body = await readProductBody(ctx, options.file);
  const checked = checkProductInput(body);
  if (!checked.ok)
    throw bodyProblemsError(options.file === '-' ? 'standard input' : options.file, checked.problems);
  const client = await ctx.client();
  const { createProduct } = await import('../../client/resources/products.js');
  // The body as written, so fields the service added after this CLI still reach it.
  const product = await createProduct(client, body as ProductInput);
  await ctx.io.printer.item(product, {
    summary: (p) => `Created ${describeProduct(p)}`,
  });
}
