/** One deterministic seeding run: the same seed, sizes and start time give the same data. */
import type { ListingRecord, TaxonomyRecord } from '../model.js';
import { IdFactory, Rng } from '../rng.js';
import type { StoreContents } from '../store/store.js';
import { seedAccounts, seedPolicies, seedTaxonomy } from './accounts.js';
import { seedEvents, seedOperations } from './activity.js';
import { seedListings, seedProducts } from './catalog.js';
import { type SeedContext, textInterner } from './context.js';
import { Sellables, seedOrders } from './orders.js';

/** Sizes and seed of the data. */
export interface SeedOptions {
  seed: number;
  products: number;
  orders: number;
  /** The clock's time at start; every timestamp is before it. */
  now: number;
}

/** Everything the store starts with, and the generator that made it. */
export interface SeedData extends StoreContents {
  rng: Rng;
}

/** Build the seed data. */
export function seedData(options: SeedOptions): SeedData {
  const rng = new Rng(options.seed);
  const ids = new IdFactory(rng);
  const ctx: SeedContext = { rng, ids, now: options.now, text: textInterner() };
  const storeId = `store_${rng.token(12)}`;
  const seededAccounts = seedAccounts(ctx);
  const accounts = seededAccounts.map((seeded) => seeded.account);
  const policies = new Map(accounts.map((account) => [account.id, seedPolicies(ctx, account)]));
  const treesByKind = new Map<string, TaxonomyRecord>();
  const taxonomies = new Map<string, TaxonomyRecord>();
  for (const account of accounts) {
    if (!account.discovery.categories) continue;
    let tree = treesByKind.get(account.channel);
    if (!tree) {
      tree = seedTaxonomy(account.channel);
      treesByKind.set(account.channel, tree);
    }
    taxonomies.set(account.id, tree);
  }
  const products = seedProducts(ctx, options.products);
  const listings = seedListings(ctx, products, seededAccounts, taxonomies);
  const orders = seedOrders(ctx, options.orders, seededAccounts, new Sellables(products));
  const operations = seedOperations(ctx, listings, products, seededAccounts);
  const listingsByProduct = new Map<string, ListingRecord[]>();
  for (const listing of listings) {
    const list = listingsByProduct.get(listing.product_id) ?? [];
    list.push(listing);
    listingsByProduct.set(listing.product_id, list);
  }
  const eventCount = Math.max(70, Math.min(1500, options.orders));
  const events = seedEvents(ctx, eventCount, {
    storeId,
    products,
    listings,
    listingsByProduct,
    orders,
    operations,
  });
  return {
    storeId,
    accounts,
    policies,
    taxonomies,
    products,
    listings,
    orders,
    operations,
    events,
    rng,
    ids,
  };
}
