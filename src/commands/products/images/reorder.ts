import { defineCommand } from '../../../cmdutil/define.js';
import { imageFields } from '../../../cmdutil/fields/products.js';
import { idArg } from '../../../cmdutil/resource-commands.js';

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
    const { planReorder } = await import('../../../core/products/images.js');
    const { editImages } = await import('../../../cmdutil/products/images.js');
    const { reorderedText } = await import('../../../output/views/images.js');
    await editImages(
      deps,
      id,
      (product, current) => planReorder(product.id, current, imageIds),
      () => reorderedText(id),
    );
  },
});
