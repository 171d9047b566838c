import { createProduct } from '../../client/resources/products.js';
import { defineCommand } from '../../cmdutil/define.js';
import { productFields } from '../../cmdutil/fields/products.js';
import { readProductBody } from '../../cmdutil/products/write-helpers.js';
import type { ProductInput } from '../../contract/schemas/product.js';
import { bodyProblemsError } from '../../core/products/body-file.js';
import { checkProductInput } from '../../core/products/check.js';
import { createdText } from '../../output/views/products.js';

/** `svc products create --file F`. */
export const command = defineCommand<{ file: string }>({
  path: ['products', 'create'],
  rank: 3,
  description: 'create a product from a JSON file',
  flags: [
    {
      flags: '--file <file>',
      description:
        'one JSON object: title required; variants, images and the other fields optional (- for standard input)',
      required: true,
    },
  ],
  fields: productFields,
  notes: [
    'The file is checked before sending: the fields, at most 20 images, and the option matrix',
    '(variants with options must cover every combination; the missing ones are named).',
    '',
    'Example file:',
    '  {"title": "Tee", "variants": [',
    '    {"sku": "TEE-S", "price": "19.00", "quantity": 5, "options": {"Size": "S"}},',
    '    {"sku": "TEE-M", "price": "19.00", "quantity": 3, "options": {"Size": "M"}}],',
    '   "images": [{"url": "https://example.com/tee.jpg"}]}',
  ],
  examples: ['svc products create --file tee.json', 'svc products create --file - --json < tee.json'],
  /** Checks the file locally, then sends it as written. */
  async run(options, deps) {
    const body = await readProductBody(deps, options.file);
    const checked = checkProductInput(body);
    if (!checked.ok)
      throw bodyProblemsError(options.file === '-' ? 'standard input' : options.file, checked.problems);
    const client = await deps.client();
    // The body as written, so fields the service added after this CLI still reach it.
    const product = await createProduct(client, body as ProductInput);
    await deps.io.printer.item(product, { summary: createdText });
  },
});
