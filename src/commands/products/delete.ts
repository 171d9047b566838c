import { deleteProduct, getProduct } from '../../client/resources/products.js';
import { deleteCommand } from '../../cmdutil/resource-commands.js';
import type { Deleted } from '../../contract/schemas/common.js';
import { AmbiguousWriteError, ApiError } from '../../errors.js';
import { plural } from '../../words.js';

/** `svc products delete ID`: asks on a terminal; elsewhere needs --yes. */
export const command = deleteCommand({
  path: ['products', 'delete'],
  rank: 5,
  description: 'delete a product; its listings are delisted from their channels',
  kind: 'product',
  list: 'svc products list',
  examples: ['svc products delete prod_123', 'svc products delete prod_123 --yes   # in scripts'],
  /** Names the product and how many of its listings go with it. */
  async question(id, deps) {
    const product = await getProduct(await deps.client(), id);
    const listed = (product.listings ?? []).filter((listing) => listing.status !== 'delisted').length;
    const note = listed > 0 ? ` Its ${listed} ${plural(listed, 'listing')} will be delisted.` : '';
    return `Delete product ${id} ${JSON.stringify(product.title)}?${note}`;
  },
  /** Deletes it; when the answer was lost, the product being gone means the delete was applied. */
  async remove(client, id): Promise<Deleted> {
    try {
      return await deleteProduct(client, id);
    } catch (error) {
      if (!(error instanceof AmbiguousWriteError)) throw error;
      const gone = await getProduct(client, id).then(
        () => false,
        (readBack: unknown) => readBack instanceof ApiError && readBack.status === 404,
      );
      if (!gone) throw error;
      return { id, object: 'product', deleted: true };
    }
  },
});
