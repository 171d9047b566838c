/** How products are shown. */
import type { Product } from '../../api/schemas/product.js';
import { age, type View } from '../view.js';

/** Products: title, variants and where they are listed. */
export const productsView: View<Product> = {
  columns: [
    { header: 'ID', cell: (p) => p.id },
    { header: 'TITLE', cell: (p) => truncate(p.title, 40) },
    { header: 'VARIANTS', cell: (p) => String(p.variants?.length ?? 0) },
    { header: 'SKUS', cell: (p) => truncate((p.variants ?? []).map((v) => v.sku).join(', '), 30) },
    { header: 'IMAGES', cell: (p) => String(p.images?.length ?? 0) },
    { header: 'LISTINGS', cell: (p) => String(p.listings?.length ?? 0) },
    { header: 'STATUS', cell: (p) => p.status ?? '' },
    { header: 'UPDATED', cell: (p, now) => age(p.updated_at, now) },
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

function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
