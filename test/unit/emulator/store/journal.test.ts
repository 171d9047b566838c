/** The journal: a transaction that throws leaves the lists as they were and tells no listener. */
import { describe, expect, it } from 'vitest';
import { createManualClock } from '../../../../src/emulator/clock.js';
import { seedData } from '../../../../src/emulator/seed/seed.js';
import { Store } from '../../../../src/emulator/store/store.js';

/** The products as JSON, by id (a Map's insertion order is not the store's state). */
function productsJson(store: Store): string {
  return JSON.stringify([...store.products.values()].sort((a, b) => a.id.localeCompare(b.id)));
}

function seeded(): Store {
  const clock = createManualClock();
  const store = new Store(clock);
  store.load(seedData({ seed: 3, products: 5, orders: 5, now: clock.now() }));
  return store;
}

describe('Store.transaction', () => {
  it('undoes sets, updates, deletes and SKU indexes in reverse, and defers listeners to commit', () => {
    const store = seeded();
    const [product] = store.products.values();
    const sku = product.variants[0]?.sku as string;
    const before = productsJson(store);
    const events = store.events.size;
    const heard: string[] = [];
    store.onEvent((event) => heard.push(event.type));
    expect(() =>
      store.transaction(() => {
        store.setInventory(sku, { quantity: 999_999 });
        store.removeProduct(product.id);
        store.emitEvent('product.deleted', { id: product.id });
        throw new Error('late failure');
      }),
    ).toThrow('late failure');
    expect(productsJson(store)).toBe(before);
    // The list index holds each product once again, the restored one included.
    expect([...store.products.scan(null)].map((item) => item.id).sort()).toEqual(
      [...store.products.keys()].sort(),
    );
    expect(store.locateSku(sku)?.product.id).toBe(product.id);
    expect(store.events.size).toBe(events);
    expect(heard).toEqual([]);
    store.transaction(() => store.emitEvent('product.updated', { id: product.id }));
    expect(heard).toEqual(['product.updated']);
  });

  it('keeps what a savepoint wrote before a later one failed', () => {
    const store = seeded();
    const [first, second] = store.products.values();
    store.transaction(() => {
      store.savepoint(() => store.removeProduct(first.id));
      expect(() =>
        store.savepoint(() => {
          store.removeProduct(second.id);
          throw new Error('item failed');
        }),
      ).toThrow();
    });
    expect(store.products.has(first.id)).toBe(false);
    expect(store.products.has(second.id)).toBe(true);
  });
});
