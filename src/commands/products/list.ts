import { listProducts } from '../../client/resources/products.js';
import { defineCommand } from '../../cmdutil/define.js';
import { productFields } from '../../cmdutil/fields/products.js';
import { printList } from '../../cmdutil/list-command.js';
import { TIME_HELP, timeParser } from '../../cmdutil/parse.js';
import { productsView } from '../../output/views/products.js';

/** `svc products list`: most recently updated first. */
export const command = defineCommand<{ updatedAfter?: string }>({
  path: ['products', 'list'],
  rank: 1,
  description: 'list products, most recently updated first',
  flags: [
    {
      flags: '--updated-after <time>',
      description: TIME_HELP,
      parse: timeParser('--updated-after'),
    },
  ],
  takes: { list: true },
  fields: productFields,
  examples: ['svc products list', 'svc products list --updated-after 7d --all --json'],
  async run(options, deps) {
    const filters = { updated_after: options.updatedAfter };
    const products = listProducts(await deps.client(), filters, deps.io.listLimit);
    await printList(deps, products, productsView, 'products');
  },
});
