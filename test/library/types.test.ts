/** The library's types, inferred from the endpoint table: checked by tsc (npm run typecheck) and run by vitest. */
import { describe, expectTypeOf, it } from 'vitest';
import {
  createClient,
  type List,
  type Listing,
  type Order,
  type SvcClient,
  type SvcError,
} from '../../src/index.js';

describe('the library types', () => {
  it('types results from the contract and refuses a wrong parameter', () => {
    // Never called: only its types are checked.
    const typed = (client: SvcClient) => {
      expectTypeOf(client.orders.get('ord_1')).resolves.toEqualTypeOf<Order>();
      expectTypeOf(client.orders.list({ status: 'awaiting_shipment' })).toEqualTypeOf<List<Order>>();
      expectTypeOf(client.orders.list().first(2)).resolves.toEqualTypeOf<Order[]>();
      expectTypeOf(client.listings.resync('list_1')).resolves.toEqualTypeOf<Listing>();
      expectTypeOf<Order['id']>().toEqualTypeOf<string>();
      // Unknown fields are kept, as the CLI keeps them.
      expectTypeOf<Order>().toHaveProperty('created_at');
      // @ts-expect-error: orders are filtered by `status`, not `state`
      client.orders.list({ state: 'shipped' });
      // @ts-expect-error: a fulfillment needs its tracking number
      client.orders.fulfill('ord_1', { carrier: 'UPS' });
      // @ts-expect-error: an inventory quantity is a number
      client.inventory.set('SKU-1', { quantity: '3' });
    };
    expectTypeOf(typed).toBeFunction();
    expectTypeOf(createClient).returns.toEqualTypeOf<SvcClient>();
    expectTypeOf<SvcError['exitCode']>().toEqualTypeOf<number>();
    expectTypeOf<SvcError['code']>().toEqualTypeOf<string | undefined>();
  });
});
