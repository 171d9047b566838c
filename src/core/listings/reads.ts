/**
 * What listings commands read about the listings they show or send: their products, their
 * accounts, the categories and attribute schemas of those accounts. Each read is made at most
 * once per run (a page of 100 listings of 12 products costs 12 product reads), and the reads
 * of many products run a few at a time, paced by the client.
 */
import type { ApiClient } from '../../client/client.js';
import { getAttributeSchema, listCategories, listChannelAccounts } from '../../client/resources/channels.js';
import { getProduct } from '../../client/resources/products.js';
import type { AttributeDefinition, ChannelAccountSummary } from '../../contract/schemas/channel-account.js';
import type { Listing } from '../../contract/schemas/listing.js';
import type { Product } from '../../contract/schemas/product.js';
import { ApiError } from '../../errors.js';
import { runChunks } from '../bulk.js';
import { categoryByPath } from './discovery.js';

/** Product reads in flight at once; the pacer decides when each is sent. */
const READ_CONCURRENCY = 8;

/** The category a listing is judged under, and where it came from. */
export interface ListingCategory {
  categoryId: string;
  /** `override`: the listing's `overrides.category_id`; `product`: the product's category, matched by path. */
  from: 'override' | 'product';
}

/** Reads made once per run and shared by every listing that needs them. */
export class ListingReads {
  private readonly productsRead = new Map<string, Promise<Product | undefined>>();
  private readonly schemasRead = new Map<string, Promise<AttributeDefinition[] | undefined>>();
  private readonly pathsRead = new Map<string, Promise<string | undefined>>();
  private readonly childrenRead = new Map<string, Promise<boolean>>();

  constructor(
    readonly client: ApiClient,
    private readonly signal?: AbortSignal,
  ) {}

  /** The product; undefined when the service no longer has it (404). */
  product(id: string): Promise<Product | undefined> {
    return once(this.productsRead, id, () => absentOn404(getProduct(this.client, id)));
  }

  /** The products of these ids (each read once, a few at a time); those the service lacks are left out. */
  async products(ids: Iterable<string>): Promise<Map<string, Product>> {
    const wanted = [...new Set(ids)];
    const found = new Map<string, Product>();
    await runChunks(
      wanted,
      async (id) => {
        const product = await this.product(id);
        if (product) found.set(id, product);
      },
      { concurrency: READ_CONCURRENCY, signal: this.signal },
    );
    return found;
  }

  /** The channel account of the list with this id (the list is read once per client). */
  async account(id: string): Promise<ChannelAccountSummary | undefined> {
    return (await listChannelAccounts(this.client)).find((account) => account.id === id);
  }

  /** The attributes a category asks for; undefined when the account has no such category (404). */
  schema(accountId: string, categoryId: string): Promise<AttributeDefinition[] | undefined> {
    return once(this.schemasRead, `${accountId}\u0000${categoryId}`, async () => {
      const schema = await absentOn404(getAttributeSchema(this.client, accountId, categoryId));
      return schema?.attributes;
    });
  }

  /** Whether a category has subcategories (then it is no leaf, and listings cannot use it). */
  hasSubcategories(accountId: string, categoryId: string): Promise<boolean> {
    return once(this.childrenRead, `${accountId}\u0000${categoryId}`, async () => {
      for await (const _ of listCategories(this.client, accountId, { parent_id: categoryId }, 1)) return true;
      return false;
    });
  }

  /**
   * The category a listing is judged under: its `overrides.category_id`, else the account's
   * category whose path is the product's category (a search of the account's categories).
   */
  async categoryOf(listing: Listing): Promise<ListingCategory | undefined> {
    const chosen = listing.overrides?.category_id;
    if (chosen) return { categoryId: chosen, from: 'override' };
    const product = await this.product(listing.product_id);
    const path = typeof product?.category === 'string' ? product.category.trim() : '';
    if (!path) return undefined;
    const key = `${listing.channel_account_id}\u0000${path.toLowerCase()}`;
    const found = await once(this.pathsRead, key, () =>
      categoryByPath(this.client, listing.channel_account_id, path),
    );
    return found ? { categoryId: found, from: 'product' } : undefined;
  }
}

/** The one promise of `key`, made by `read` the first time it is asked for. */
function once<T>(reads: Map<string, Promise<T>>, key: string, read: () => Promise<T>): Promise<T> {
  let promise = reads.get(key);
  if (!promise) {
    promise = read();
    reads.set(key, promise);
  }
  return promise;
}

/** What `read` answers, or undefined when the service has no such thing (404). */
async function absentOn404<T>(read: Promise<T>): Promise<T | undefined> {
  try {
    return await read;
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return undefined;
    throw error;
  }
}
