/**
 * The store's live quantity and price of every SKU, read the one way `inventory export`,
 * `inventory diff`, `push --changed-only` and `push --backup` read them: GET /products
 * through the one pager (paced, no write quota), settled by closing passes so that every
 * SKU is seen exactly once even while a push runs elsewhere.
 */
import type { ApiClient } from '../../client/client.js';
import { listProducts } from '../../client/resources/products.js';
import type { Product } from '../../contract/schemas/product.js';
import { SettledCrawl } from '../settled-crawl.js';

/** One SKU as the store has it now; null where the store has no value. */
export interface LiveStock {
  sku: string;
  quantity: number | null;
  price: string | null;
  /** With titles (`export --with-titles`): the product's title. */
  title?: string | null;
  /** With titles: the variant's options as people read them, `Size: M / Color: Red`. */
  options?: string | null;
}

/** What a read gives of each SKU beyond its values. */
export interface StockReadOptions {
  /** The product's title and the variant's options, for people reading the file. */
  titles?: boolean;
}

/** The live values by SKU, for comparing a file with the store (a Map, or a StockTable for a whole store). */
export interface LiveIndex {
  get(sku: string): { quantity: number | null; price: string | null } | undefined;
  readonly size: number;
}

/** A read of every SKU; its counters say how hard the store was to pin down. */
export class LiveStockRead {
  /** Products read (each once). */
  products = 0;
  private readonly crawl: SettledCrawl<Product>;

  constructor(client: ApiClient, signal?: AbortSignal) {
    this.crawl = new SettledCrawl((onPage) => listProducts(client, {}, 'all', { onPage, signal }), {
      idOf: (product) => product.id,
      changedMs: (product) => Date.parse(product.updated_at),
      what: 'product list',
    });
  }

  /** Closing passes the read needed (products changed while it ran). */
  get closingPasses(): number {
    return this.crawl.closingPasses;
  }

  /** Products the main crawl missed and a closing pass caught. */
  get caughtByClosingPasses(): number {
    return this.crawl.caughtByClosingPasses;
  }

  /** Every SKU once, product by product. */
  async *rows(options: StockReadOptions = {}): AsyncGenerator<LiveStock> {
    for await (const product of this.crawl.items()) {
      this.products++;
      yield* stockOf(product, options);
    }
  }
}

/** The SKUs of one product, as a read gives them. */
function* stockOf(product: Product, { titles }: StockReadOptions): Generator<LiveStock> {
  for (const variant of product.variants ?? []) {
    const values = { sku: variant.sku, quantity: variant.quantity ?? null, price: variant.price ?? null };
    yield titles
      ? { ...values, title: product.title ?? null, options: optionsText(variant.options) }
      : values;
  }
}

/** `Size: M / Color: Red`: a variant's options in one cell, in the order the service gives them. */
function optionsText(options: Readonly<Record<string, string>> | null | undefined): string | null {
  const entries = Object.entries(options ?? {});
  return entries.length > 0 ? entries.map(([name, value]) => `${name}: ${value}`).join(' / ') : null;
}

/**
 * The SKUs of the first `limit` products (`inventory export --limit N`: a sample, not a
 * snapshot); once read, `hasMore` says whether the store holds more products than that.
 */
export function sampleStock(
  client: ApiClient,
  limit: number,
  options: StockReadOptions = {},
): AsyncIterable<LiveStock> & { readonly hasMore?: boolean } {
  const products = listProducts(client, {}, limit);
  async function* rows(): AsyncGenerator<LiveStock> {
    for await (const product of products) yield* stockOf(product, options);
  }
  return {
    [Symbol.asyncIterator]: rows,
    get hasMore() {
      return products.hasMore;
    },
  };
}
