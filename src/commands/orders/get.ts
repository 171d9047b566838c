import { getOrder } from '../../client/resources/orders.js';
import { orderFields, orderView, SHOW_BUYER_HELP } from '../../cmdutil/orders/buyer.js';
import { getCommand } from '../../cmdutil/resource-commands.js';

/** `svc orders get ID`: one order in full; the buyer's personal data on request. */
export const command = getCommand({
  path: ['orders', 'get'],
  rank: 2,
  description: 'show one order in full: lines, tracking, and the buyer with --show-buyer',
  kind: 'order',
  list: 'svc orders list',
  flags: [{ flags: '--show-buyer', description: SHOW_BUYER_HELP }],
  fields: orderFields,
  view: (deps, args) => orderView(deps, Boolean(args.showBuyer)),
  fetch: async (client, id) => getOrder(client, id),
  web: (order) => ({
    url: order.order_url,
    what: `order ${order.id} on its marketplace`,
    field: 'order_url',
  }),
  examples: [
    'svc orders get ord_123',
    'svc orders get ord_123 --show-buyer',
    'svc orders get ord_123 --json | jq .buyer.address',
    'svc orders get ord_123 --web   # the order on its marketplace',
  ],
});
