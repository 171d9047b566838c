import { basename } from 'node:path';
import { uploadFile } from '../../../client/resources/files.js';
import { getProduct } from '../../../client/resources/products.js';
import { defineCommand } from '../../../cmdutil/define.js';
import { imageFields } from '../../../cmdutil/fields/products.js';
import { editImages } from '../../../cmdutil/products/images.js';
import { idArg } from '../../../cmdutil/resource-commands.js';
import { isImageUrl, planAdd, readLocalImage } from '../../../core/products/images.js';
import { addedText } from '../../../output/views/images.js';

/** `svc products images add ID IMAGE…`. */
export const command = defineCommand<{ id: string; image: string[] }>({
  path: ['products', 'images', 'add'],
  rank: 2,
  description:
    'add images at the end: local files are uploaded first (as files of the service), URLs are hosted by the service',
  args: [
    idArg('product', 'svc products list'),
    {
      name: 'image',
      description: 'local JPEG, PNG or WebP files (up to 10 MB) or http(s) URLs',
      variadic: true,
    },
  ],
  fields: imageFields,
  notes: ['All local files are checked before anything is sent; a product holds at most 20 images.'],
  examples: [
    'svc products images add prod_123 front.jpg back.png',
    'svc products images add prod_123 https://example.com/side.webp',
  ],
  /** Checks every local file, reads the product, refuses a 21st image, uploads, then sends the full array. */
  async run({ id, image: sources }, deps) {
    const locals = [];
    for (const source of sources) if (!isImageUrl(source)) locals.push(await readLocalImage(source));
    const client = await deps.client();
    const product = await getProduct(client, id);
    // The limit is checked with placeholder URLs first, so nothing is uploaded for a refused add.
    planAdd(product.id, product.images ?? [], sources);
    const urls: string[] = [];
    for (const source of sources) {
      const local = locals.find((image) => image.path === source);
      if (!local) {
        urls.push(source);
        continue;
      }
      const file = await uploadFile(
        client,
        { base64: local.bytes.toString('base64'), filename: basename(local.path) },
        deps.signal,
      );
      deps.io.messages.info(`Uploaded ${local.path} as ${file.id}`);
      urls.push(file.url);
    }
    await editImages(
      deps,
      id,
      (current, images) => planAdd(current.id, images, urls),
      (count) => addedText(id, sources.length, count),
      product,
    );
  },
});
