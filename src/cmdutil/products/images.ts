/** What the image verbs share: sending a whole new images array safely, and printing the images. */

import type { Image, ImageInput, Product } from '../../contract/schemas/product.js';
import { ApiError } from '../../errors.js';
import { imagesView } from '../../output/views/images.js';
import type { Deps } from '../deps.js';
import { fromArray } from '../list-command.js';

/**
 * Sends the desired full images array made by `plan`, guarded by the updated_at just read,
 * so an image change made meanwhile by someone else is not silently undone.
 */
export async function editImages(
  deps: Pick<Deps, 'io' | 'client'>,
  id: string,
  plan: (product: Product, current: Image[]) => ImageInput[],
  said: (count: number) => string,
  known?: Product,
): Promise<void> {
  const { getProduct, updateProduct } = await import('../../client/resources/products.js');
  const { displayOrder } = await import('../../core/products/images.js');
  const client = await deps.client();
  const product = known ?? (await getProduct(client, id));
  const images = plan(product, displayOrder(product.images));
  try {
    const updated = await updateProduct(client, id, { images, expected_updated_at: product.updated_at });
    const { simulatedNote } = await import('../../output/summary.js');
    deps.io.messages.info(`${said(updated.images?.length ?? 0)}${simulatedNote(client.live)}`);
    await printImages(deps, updated);
  } catch (error) {
    if (!(error instanceof ApiError) || error.status !== 412) throw error;
    throw new ApiError(412, {
      ...error.toJSON().error,
      message: `product ${id} changed while its images were being edited (it was read at ${product.updated_at}); nothing was changed, run the command again`,
    });
  }
}

/** A product's images in display order; on a terminal, a line when it has none. */
export async function printImages(deps: Pick<Deps, 'io'>, product: Product): Promise<void> {
  const { displayOrder } = await import('../../core/products/images.js');
  const images = displayOrder(product.images);
  await deps.io.printer.list(fromArray(images), imagesView);
  if (images.length === 0 && deps.io.format === 'table' && deps.io.stdoutIsTTY)
    deps.io.messages.info(`${product.id} has no images.`);
}
