import { getProduct } from '../../../client/resources/products.js';
import { defineCommand } from '../../../cmdutil/define.js';
import { imageFields } from '../../../cmdutil/fields/products.js';
import { printImages } from '../../../cmdutil/products/images.js';
import { idArg } from '../../../cmdutil/resource-commands.js';

/** `svc products images list ID`. */
export const command = defineCommand<{ id: string }>({
  path: ['products', 'images', 'list'],
  rank: 1,
  description: "list a product's images in display order",
  args: [idArg('product', 'svc products list')],
  fields: imageFields,
  examples: ['svc products images list prod_123'],
  async run({ id }, deps) {
    await printImages(deps, await getProduct(await deps.client(), id));
  },
});
