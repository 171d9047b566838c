import { getProduct } from '../../client/resources/products.js';
import { productFields } from '../../cmdutil/fields/products.js';
import { getCommand } from '../../cmdutil/resource-commands.js';

/** `svc products get ID`. */
export const command = getCommand({
  path: ['products', 'get'],
  rank: 2,
  description: 'show one product with its variants, images and listings',
  kind: 'product',
  list: 'svc products list',
  fields: productFields,
  fetch: async (client, id) => getProduct(client, id),
  examples: ['svc products get prod_123'],
});
