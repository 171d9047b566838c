/**
 * What `products upsert` would record for each product of a checked file, from one read of the
 * catalog (reads only), judged by the service's rules in file order: an item whose SKUs belong
 * to two products fails, as does one naming an image id its product does not have; any other
 * updates the product its SKUs match, or creates one. A live key's items change the catalog the
 * later ones are judged against, as the live run's would; a test key's change nothing.
 */
import { ERROR_CODES } from '../../contract/contract.js';
import type { Product } from '../../contract/schemas/product.js';
import type { UpsertItem } from './upsert-file.js';

/** One product's verdict, as a dry run's report writes it. */
export interface UpsertVerdict {
  line: number;
  key: string;
  status: 'would_send' | 'would_fail';
  code?: string;
  message: string;
}

/** What the judging knows of the catalog: each SKU's product, each product's image ids. */
interface Catalog {
  ownerOf: Map<string, string>;
  imagesOf: Map<string, Set<string>>;
  skusOf: Map<string, string[]>;
}

/** Every item of the file in order, with what the live upsert would record for it. */
export async function upsertVerdicts(
  items: readonly UpsertItem[],
  products: AsyncIterable<Product>,
  options: { live: boolean },
): Promise<UpsertVerdict[]> {
  const catalog: Catalog = { ownerOf: new Map(), imagesOf: new Map(), skusOf: new Map() };
  for await (const product of products) {
    const skus = (product.variants ?? []).map((variant) => variant.sku);
    for (const sku of skus) catalog.ownerOf.set(sku, product.id);
    catalog.skusOf.set(product.id, skus);
    catalog.imagesOf.set(product.id, new Set((product.images ?? []).map((image) => image.id)));
  }
  return items.map((item, index) => {
    const verdict = judge(item, catalog);
    if (verdict.status === 'would_send' && options.live) apply(item, verdict.productId, index, catalog);
    const { productId: _id, ...shown } = verdict;
    return { line: item.line, key: item.key, ...shown };
  });
}

/** The service's verdict on one item against the catalog as it stands. */
function judge(
  item: UpsertItem,
  catalog: Catalog,
): Omit<UpsertVerdict, 'line' | 'key'> & { productId?: string } {
  const skus = item.input.variants?.map((variant) => variant.sku) ?? [];
  const owners = [...new Set(skus.flatMap((sku) => catalog.ownerOf.get(sku) ?? []))];
  if (owners.length > 1)
    return failed(
      `The SKUs of this item belong to ${owners.length} products (${owners.join(', ')}); an item can update only one.`,
    );
  const [productId] = owners;
  const known = (productId && catalog.imagesOf.get(productId)) || new Set<string>();
  const named = new Set<string>();
  for (const image of item.input.images ?? []) {
    if (image.id === undefined) continue;
    if (!known.has(image.id))
      return failed(`The product has no image ${image.id}; send new images without an id.`);
    if (named.has(image.id)) return failed(`The image ${image.id} appears twice.`);
    named.add(image.id);
  }
  return productId
    ? { status: 'would_send', message: `would update ${productId}`, productId }
    : { status: 'would_send', message: 'would create a product' };
}

function failed(message: string): Omit<UpsertVerdict, 'line' | 'key'> {
  return { status: 'would_fail', code: ERROR_CODES.validationFailed, message };
}

/** The catalog after the item is written: its product holds the item's SKUs (and no others, when it names variants). */
function apply(item: UpsertItem, productId: string | undefined, index: number, catalog: Catalog): void {
  const id = productId ?? `new product ${index + 1}`;
  const variants = item.input.variants ?? [];
  for (const sku of catalog.skusOf.get(id) ?? []) catalog.ownerOf.delete(sku);
  const skus = variants.map((variant) => variant.sku);
  for (const sku of skus) catalog.ownerOf.set(sku, id);
  catalog.skusOf.set(id, skus);
  // Images the item leaves out are dropped; new ones get ids no later item of the file can know.
  const { images } = item.input;
  if (images) catalog.imagesOf.set(id, new Set(images.flatMap((image) => image.id ?? [])));
}
