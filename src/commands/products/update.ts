import { getProduct, updateProduct } from '../../client/resources/products.js';
import { defineCommand } from '../../cmdutil/define.js';
import { productFields } from '../../cmdutil/fields/products.js';
import { collect, timeParser } from '../../cmdutil/parse.js';
import { readProductBody } from '../../cmdutil/products/write-helpers.js';
import { idArg } from '../../cmdutil/resource-commands.js';
import type { ProductUpdate } from '../../contract/schemas/product.js';
import { bodyProblemsError } from '../../core/products/body-file.js';
import { checkProductUpdate } from '../../core/products/check.js';
import { parseSetFields } from '../../core/products/set-fields.js';
import { ApiError, UsageError } from '../../errors.js';
import { updatedText } from '../../output/views/products.js';

/** Arguments of `svc products update`. */
export interface UpdateArgs {
  id: string;
  file?: string;
  set?: string[];
  expectedUpdatedAt?: string;
}

/** `svc products update ID (--file F | --set k=v …) [--expected-updated-at T]`. */
export const command = defineCommand<UpdateArgs>({
  path: ['products', 'update'],
  rank: 4,
  description: 'change fields of a product; channels it is listed on are synced',
  args: [idArg('product', 'svc products list')],
  flags: [
    { flags: '--file <file>', description: 'JSON object with the fields to change (- for standard input)' },
    {
      flags: '--set <field=value>',
      description: 'one field, repeatable: title=…, weight.value=1.5, tags=a,b, vat_rate=20',
      // Its default is [], so there is always a list to add to.
      parse: (value, previous) => collect(value, previous as string[]),
      default: [],
    },
    {
      flags: '--expected-updated-at <time>',
      description: 'the updated_at you last saw; the service refuses (412) if the product changed since',
      parse: timeParser('--expected-updated-at'),
    },
  ],
  fields: productFields,
  notes: [
    'Fields left out stay as they are. In a --file, "variants" replaces the variant set (matched',
    'by SKU) and "images" the image list; for images, svc products images is easier.',
  ],
  examples: [
    'svc products update prod_123 --set title="Blue mug" --set tags=kitchen,blue',
    'svc products update prod_123 --set weight.value=12 --set weight.unit=oz',
    'svc products update prod_123 --file changes.json --expected-updated-at 2026-11-01T09:00:00.000Z',
  ],
  /** Checks the change locally, sends it, and explains a 412 with the time the product changed. */
  async run({ id, ...options }, deps) {
    const sets = options.set ?? [];
    if (options.file !== undefined && sets.length > 0) {
      throw new UsageError('give either --file or --set, not both');
    }
    if (options.file === undefined && sets.length === 0) {
      throw new UsageError(
        'nothing to change: give --file F or --set field=value, e.g. --set title="Blue mug"',
      );
    }
    let body: Record<string, unknown>;
    if (options.file !== undefined) {
      body = await readProductBody(deps, options.file, ['expected_updated_at']);
    } else {
      body = parseSetFields(sets);
    }
    if (options.expectedUpdatedAt !== undefined) body.expected_updated_at = options.expectedUpdatedAt;
    const checked = checkProductUpdate(body);
    if (!checked.ok) throw bodyProblemsError(options.file ?? '--set', checked.problems);
    const client = await deps.client();
    try {
      const product = await updateProduct(client, id, body as ProductUpdate);
      await deps.io.printer.item(product, { summary: updatedText });
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
  },
});
