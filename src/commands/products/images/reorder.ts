import { defineCommand } from '../../../cmdutil/define.js';
import { imageFields } from '../../../cmdutil/fields/products.js';
import { editImages } from '../../../cmdutil/products/images.js';
import { idArg } from '../../../cmdutil/resource-commands.js';
import { planReorder } from '../../../core/products/images.js';
import { reorderedText } from '../../../output/views/images.js';

/** `svc products images reorder ID IMAGE-ID…`. */
export const command = defineCommand<{ id: string; imageId: string[] }>({
  path: ['products', 'images', 'reorder'],
  rank: 4,
  description: 'put images first in the order given; the others follow in their current order',
  args: [
    idArg('product', 'svc products list'),
    { name: 'image-id', description: 'image ids (img_…) in the new display order', variadic: true },
  ],
  fields: imageFields,
  examples: ['svc products images reorder prod_123 img_9   # img_9 becomes the main image'],
  async run({ id, imageId: imageIds }, deps) {
    await editImages(
      deps,
      id,
      (product, current) => planReorder(product.id, current, imageIds),
      () => reorderedText(id),
    );
  },
});
