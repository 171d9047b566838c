import type { Command } from 'commander';
import type { Context } from '../../cmdutil/context.js';
import { fromArray } from '../../cmdutil/list-command.js';
import type { Image, ImageInput, Product } from '../../contract/schemas/product.js';
import { ApiError } from '../../errors.js';
import { imagesView } from '../../output/views/images.js';
import { plural } from '../../words.js';

/** `svc products images list | add | remove | reorder`. */
export function imagesCommand(parent: Command, ctx: Context): void {
  const images = parent
    .command('images')
    .description('list, add, remove and reorder the images of a product (array order is display order)');
  images
    .command('list')
    .description("list a product's images in display order")
    .argument('<id>', 'product id (prod_…)')
    .addHelpText('after', '\nExample:\n  svc products images list prod_123\n')
    .action(async (id: string) => {
      const { getProduct } = await import('../../client/resources/products.js');
      await printImages(ctx, await getProduct(await ctx.client(), id));
    });
  images
    .command('add')
    .description(
      'add images at the end: local files are uploaded first (POST /files), URLs are hosted by the service',
    )
    .argument('<id>', 'product id (prod_…)')
    .argument('<image...>', 'local JPEG, PNG or WebP files (up to 10 MB) or http(s) URLs')
    .addHelpText(
      'after',
      '\nAll local files are checked before anything is sent; a product holds at most 20 images.\n\nExamples:\n  svc products images add prod_123 front.jpg back.png\n  svc products images add prod_123 https://example.com/side.webp\n',
    )
    .action(async (id: string, sources: string[]) => runAdd(ctx, id, sources));
  images
    .command('remove')
    .description('remove images from a product (they are deleted from storage)')
    .argument('<id>', 'product id (prod_…)')
    .argument('<image-id...>', 'image ids (img_…), see svc products images list')
    .addHelpText('after', '\nExample:\n  svc products images remove prod_123 img_456\n')
    .action(async (id: string, imageIds: string[]) => {
      const { planRemove } = await import('../../core/products/images.js');
      await edit(
        ctx,
        id,
        (product, current) => planRemove(product.id, current, imageIds),
        (count) =>
          `Removed ${imageIds.length} ${plural(imageIds.length, 'image')} from ${id}; it has ${count} now`,
      );
    });
  images
    .command('reorder')
    .description('put images first in the order given; the others follow in their current order')
    .argument('<id>', 'product id (prod_…)')
    .argument('<image-id...>', 'image ids (img_…) in the new display order')
    .addHelpText(
      'after',
      '\nExample (img_9 becomes the main image):\n  svc products images reorder prod_123 img_9\n',
    )
    .action(async (id: string, imageIds: string[]) => {
      const { planReorder } = await import('../../core/products/images.js');
      await edit(
        ctx,
        id,
        (product, current) => planReorder(product.id, current, imageIds),
        () => `Reordered the images of ${id}`,
      );
    });
}

/** Checks every local file, reads the product, refuses a 21st image, uploads, then sends the full array. */
async function runAdd(ctx: Context, id: string, sources: string[]): Promise<void> {
  const { isImageUrl, planAdd, readLocalImage } = await import('../../core/products/images.js');
  const locals = [];
  for (const source of sources) if (!isImageUrl(source)) locals.push(await readLocalImage(source));
  const { getProduct } = await import('../../client/resources/products.js');
  const client = await ctx.client();
  const product = await getProduct(client, id);
  // The limit is checked with placeholder URLs first, so nothing is uploaded for a refused add.
  planAdd(product.id, product.images ?? [], sources);
  const { uploadFile } = await import('../../client/resources/files.js');
  const { basename } = await import('node:path');
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
      ctx.signal,
    );
    ctx.io.messages.info(`Uploaded ${local.path} as ${file.id}`);
    urls.push(file.url);
  }
  const said = (count: number) =>
    `Added ${sources.length} ${plural(sources.length, 'image')} to ${id}; it has ${count} now`;
  await edit(ctx, id, (current, images) => planAdd(current.id, images, urls), said, product);
}

/**
 * Sends the desired full images array made by `plan`, guarded by the updated_at just read,
 * so an image change made meanwhile by someone else is not silently undone.
 */
async function edit(
  ctx: Context,
  id: string,
  plan: (product: Product, current: Image[]) => ImageInput[],
  said: (count: number) => string,
  known?: Product,
): Promise<void> {
  const { getProduct, updateProduct } = await import('../../client/resources/products.js');
  const { displayOrder } = await import('../../core/products/images.js');
  const client = await ctx.client();
  const product = known ?? (await getProduct(client, id));
  const images = plan(product, displayOrder(product.images));
  try {
    const updated = await updateProduct(client, id, { images, expected_updated_at: product.updated_at });
    const { simulatedNote } = await import('../../output/summary.js');
    ctx.io.messages.info(`${said(updated.images?.length ?? 0)}${simulatedNote(client.live)}`);
    await printImages(ctx, updated);
  } catch (error) {
    if (!(error instanceof ApiError) || error.status !== 412) throw error;
    throw new ApiError(412, {
      ...error.toJSON().error,
      message: `product ${id} changed while its images were being edited (it was read at ${product.updated_at}); nothing was changed, run the command again`,
    });
  }
}

async function printImages(ctx: Context, product: Product): Promise<void> {
  const { displayOrder } = await import('../../core/products/images.js');
  const images = displayOrder(product.images);
  await ctx.io.printer.list(fromArray(images), imagesView);
  if (images.length === 0 && ctx.io.format === 'table' && ctx.io.stdoutIsTTY)
    ctx.io.messages.info(`${product.id} has no images.`);
}
