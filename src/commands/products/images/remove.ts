import { defineCommand } from '../../../cmdutil/define.js';
import { imageFields } from '../../../cmdutil/fields/products.js';
import { editImages } from '../../../cmdutil/products/images.js';
import { idArg } from '../../../cmdutil/resource-commands.js';
import { planRemove } from '../../../core/products/images.js';
import { removedText } from '../../../output/views/images.js';

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
    await editImages(
      deps,
      id,
      (product, current) => planRemove(product.id, current, imageIds),
      (count) => removedText(id, imageIds.length, count),
    );
  },
});
