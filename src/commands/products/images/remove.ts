import { defineCommand } from '../../../cmdutil/define.js';
import { imageFields } from '../../../cmdutil/fields/products.js';
import { idArg } from '../../../cmdutil/resource-commands.js';

/** `svc products images remove ID IMAGE-ID…`. */
export const command = defineCommand<{ id: string; imageId: string[] }>({
  path: ['products', 'images', 'remove'],
  rank: 3,
  description: 'remove images from a product (they are deleted from storage)',
  args: [
    idArg('product', 'svc products list'),
    { name: 'image-id', description: 'image ids (img_…), see svc products images list', variadic: true },
  ],
  fields: imageFields,
  examples: ['svc products images remove prod_123 img_456'],
  async run({ id, imageId: imageIds }, deps) {
    const { planRemove } = await import('../../../core/products/images.js');
    const { editImages } = await import('../../../cmdutil/products/images.js');
    const { removedText } = await import('../../../output/views/images.js');
    await editImages(
      deps,
      id,
      (product, current) => planRemove(product.id, current, imageIds),
      (count) => removedText(id, imageIds.length, count),
    );
  },
});
