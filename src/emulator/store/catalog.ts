/**
 * The catalog part of the store: channel accounts with their discovery data, products with
 * their SKUs, and listings by product; inventory is set here because it lives on variants.
 */
import { type Clock, isoTime } from '../clock.js';
import type {
  ChannelAccountRecord,
  ListingRecord,
  PolicyRecord,
  ProductRecord,
  TaxonomyRecord,
  VariantRecord,
} from '../model.js';
import { EventLog } from './event-log.js';
import { IndexedMap } from './indexed-map.js';
import { type InventoryItemView, inventoryItem, type ProductView, productView } from './views.js';

/** What setting a SKU's quantity and price did. */
export interface InventoryChange {
  changed: boolean;
  item: InventoryItemView;
  product: ProductRecord;
  variant: VariantRecord;
}

/** Accounts, products, SKUs and listings, with the lookups between them. */
export class Catalog extends EventLog {
  readonly accounts = new Map<string, ChannelAccountRecord>();
  readonly policies = new Map<string, PolicyRecord[]>();
  readonly taxonomies = new Map<string, TaxonomyRecord>();
  /** Products, listed by updated_at, newest first. */
  readonly products = new IndexedMap<ProductRecord>({
    key: (product) => product.updated_at,
    direction: 'desc',
  });
  /** Listings, listed by updated_at, newest first, with an index for each equality filter. */
  readonly listings = new IndexedMap<ListingRecord>({
    key: (listing) => listing.updated_at,
    direction: 'desc',
    // A product has a few listings: its filter reads them from listingIdsByProduct (no index per product).
    lookups: { product_id: (productId) => this.listingsOf(productId) },
    fields: {
      channel_account_id: (listing) => listing.channel_account_id,
      channel: (listing) => listing.channel,
      status: (listing) => listing.status,
      error_code: (listing) => listing.issues.map((issue) => issue.code),
    },
  });
  /** The product of each SKU, by id (a million SKUs: no object each). */
  private readonly skus = new Map<string, string>();
  /** The ids of each product's listings, in the order they came (an array: a product has a few). */
  private readonly listingIdsByProduct = new Map<string, string[]>();

  constructor(clock: Clock) {
    super(clock);
    this.products.journal = this.journal;
    this.listings.journal = this.journal;
  }

  /** Empty every catalog map (before loading again). */
  protected clearCatalog(): void {
    for (const map of [
      this.accounts,
      this.policies,
      this.taxonomies,
      this.products,
      this.listings,
      this.skus,
      this.listingIdsByProduct,
    ]) {
      map.clear();
    }
  }

  /** Take in many products and listings at once (loading). */
  protected loadCatalog(products: ProductRecord[], listings: ListingRecord[]): void {
    this.products.load(products);
    for (const product of products) this.indexSkus(product);
    this.listings.load(listings);
    for (const listing of listings) this.indexUnderProduct(listing);
    // Pushes leave room for a dozen more ids in each array: a copy holds only what it has.
    for (const [productId, ids] of this.listingIdsByProduct)
      this.listingIdsByProduct.set(productId, ids.slice());
  }

  /** Add or replace a product and index its SKUs. */
  putProduct(product: ProductRecord): void {
    const previous = this.products.get(product.id);
    this.journal.record(() => {
      for (const variant of product.variants) {
        if (this.skus.get(variant.sku) === product.id) this.skus.delete(variant.sku);
      }
      if (previous) this.indexSkus(previous);
    });
    if (previous) for (const variant of previous.variants) this.skus.delete(variant.sku);
    this.products.set(product.id, product);
    this.indexSkus(product);
  }

  private indexSkus(product: ProductRecord): void {
    for (const variant of product.variants) {
      this.skus.set(variant.sku, product.id);
    }
  }

  /** Remove a product and unindex its SKUs (its listings stay, for their own history). */
  removeProduct(id: string): ProductRecord | undefined {
    const product = this.products.get(id);
    if (!product) return undefined;
    this.journal.record(() => this.indexSkus(product));
    for (const variant of product.variants) this.skus.delete(variant.sku);
    this.products.delete(id);
    return product;
  }

  /** Add or replace a listing and index it under its product. */
  putListing(listing: ListingRecord): void {
    this.listings.set(listing.id, listing);
    this.indexUnderProduct(listing);
  }

  private indexUnderProduct(listing: ListingRecord): void {
    const ids = this.listingIdsByProduct.get(listing.product_id);
    if (ids?.includes(listing.id)) return;
    const held = ids ?? [];
    if (!ids) this.listingIdsByProduct.set(listing.product_id, held);
    held.push(listing.id);
    // A request rolled back forgets the listing under its product too.
    this.journal.record(() => {
      const at = held.indexOf(listing.id);
      if (at >= 0) held.splice(at, 1);
    });
  }

  /** The listings of a product. */
  listingsOf(productId: string): ListingRecord[] {
    const ids = this.listingIdsByProduct.get(productId);
    if (!ids) return [];
    const listings: ListingRecord[] = [];
    for (const id of ids) {
      const listing = this.listings.get(id);
      if (listing) listings.push(listing);
    }
    return listings;
  }

  /** A product as GET returns it, with its listing summaries. */
  productView(product: ProductRecord): ProductView {
    return productView(product, this.listingsOf(product.id));
  }

  /** The product and variant of a SKU. */
  locateSku(sku: string): { product: ProductRecord; variant: VariantRecord } | undefined {
    const productId = this.skus.get(sku);
    if (productId === undefined) return undefined;
    const product = this.products.get(productId);
    const variant = product?.variants.find((candidate) => candidate.sku === sku);
    return product && variant ? { product, variant } : undefined;
  }

  /** A SKU's quantity and price as an inventory item; undefined for an unknown SKU. */
  inventoryBySku(sku: string): InventoryItemView | undefined {
    const located = this.locateSku(sku);
    return located ? inventoryItem(located.product, located.variant, located.product.updated_at) : undefined;
  }

  /** Every SKU in the store. */
  allSkus(): string[] {
    return [...this.skus.keys()];
  }

  /** How many variants (SKUs) the catalog holds. */
  variantCount(): number {
    return this.skus.size;
  }

  /**
   * Set a SKU's quantity and/or price. With `simulate`, answer what would happen and change
   * nothing (test keys). Throws nothing; an unknown SKU gives undefined.
   */
  setInventory(
    sku: string,
    change: { quantity?: number; price?: string },
    options: { simulate?: boolean } = {},
  ): InventoryChange | undefined {
    const located = this.locateSku(sku);
    if (!located) return undefined;
    const { product, variant } = located;
    const quantity = change.quantity ?? variant.quantity;
    const price = change.price ?? variant.price;
    const changed = quantity !== variant.quantity || price !== variant.price;
    if (options.simulate || !changed) {
      const updatedAt = changed ? isoTime(this.now()) : product.updated_at;
      return {
        changed,
        product,
        variant,
        item: inventoryItem(product, { ...variant, quantity, price }, updatedAt),
      };
    }
    this.products.update(product, () => {
      variant.quantity = quantity;
      variant.price = price;
      product.updated_at = isoTime(this.now());
    });
    const item = inventoryItem(product, variant, product.updated_at);
    // The item is a flat object made here, never changed: the event keeps it, no copy.
    this.emitEvent('inventory.updated', item, this.now(), { fixed: true });
    return { changed, product, variant, item };
  }

  /** The accounts a product's stock propagates to: listed there, with inventory control on. */
  inventoryTargets(productId: string): ListingRecord[] {
    return this.listingsOf(productId).filter((listing) => {
      const account = this.accounts.get(listing.channel_account_id);
      const live =
        listing.status === 'listed' || listing.status === 'imported' || listing.status === 'ongoing';
      return live && account?.inventory.control === true;
    });
  }
}
