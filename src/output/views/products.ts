/** How products are shown. */
import type { Product } from '../../contract/schemas/product.js';
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
