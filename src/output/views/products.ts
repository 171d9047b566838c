/** How products are shown. */
import type { Product } from '../../contract/schemas/product.js';
import { plural } from '../../words.js';
import type { View } from '../view.js';

/** Products: title, variants and where they are listed. */
export const productsView: View<Product> = {
  columns: [
    { header: 'ID', cell: (p) => p.id },
    { header: 'TITLE', cell: (p) => p.title, shrink: true },
    { header: 'VARIANTS', cell: (p) => String(p.variants?.length ?? 0), drop: 3 },
    { header: 'SKUS', cell: (p) => (p.variants ?? []).map((v) => v.sku).join(', '), shrink: true },
    { header: 'IMAGES', cell: (p) => String(p.images?.length ?? 0), drop: 1 },
    { header: 'LISTINGS', cell: (p) => String(p.listings?.length ?? 0), drop: 2 },
    { header: 'STATUS', cell: (p) => p.status ?? '' },
    { header: 'UPDATED', time: (p) => p.updated_at, drop: 4 },
  ],
  fields: [
    'id',
    'title',
    'brand',
    'category',
    'status',
    'sync_status',
    'currency',
    'tags',
    'variants',
    'images',
    'created_at',
    'updated_at',
  ],
};

/** "Created prod_1 "Blue mug": 4 variants, 2 images". */
export function createdText(product: Product): string {
  return `Created ${describeProduct(product)}`;
}

/** "Updated prod_1 "Blue mug": 4 variants, 2 images, updated_at T (operation op_1: 2 channels pending)". */
export function updatedText(product: Product): string {
  return `Updated ${describeProduct(product)}, updated_at ${product.updated_at}${describeSync(product)}`;
}

/** "prod_1 "Blue mug": 4 variants, 2 images". */
function describeProduct(product: Product): string {
  const variants = product.variants?.length ?? 0;
  const images = product.images?.length ?? 0;
  return `${product.id} ${JSON.stringify(product.title)}: ${variants} ${plural(variants, 'variant')}, ${images} ${plural(images, 'image')}`;
}

/** " (operation op_1: 2 channels pending)" for an update's sync block, or "". */
function describeSync(product: Product): string {
  const sync = product.sync;
  if (!sync?.operation_id) return '';
  const channels = sync.channels ?? [];
  const byStatus = new Map<string, number>();
  for (const channel of channels) byStatus.set(channel.status, (byStatus.get(channel.status) ?? 0) + 1);
  const parts = [...byStatus].map(([status, count]) => `${count} ${status}`);
  const noun = plural(channels.length, 'channel');
  return ` (operation ${sync.operation_id}: ${channels.length === 0 ? 'no listed channels' : `${noun} ${parts.join(', ')}`})`;
}
