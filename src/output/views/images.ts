/** How a product's images are shown. */
import type { Image } from '../../contract/schemas/product.js';
import { plural } from '../../words.js';
import type { View } from '../view.js';

/** Images in display order: position, id, url, alt text. */
export const imagesView: View<Image> = {
  columns: [
    { header: 'POS', cell: (i) => String(i.position ?? '') },
    { header: 'ID', cell: (i) => i.id },
    { header: 'URL', cell: (i) => i.url, shrink: true },
    { header: 'ALT', cell: (i) => i.alt ?? '', shrink: true },
  ],
  fields: ['position', 'id', 'url', 'alt'],
};

/** "Added 2 images to prod_1; it has 5 now". */
export function addedText(productId: string, added: number, count: number): string {
  return `Added ${added} ${plural(added, 'image')} to ${productId}; it has ${count} now`;
}

/** "Removed 1 image from prod_1; it has 4 now". */
export function removedText(productId: string, removed: number, count: number): string {
  return `Removed ${removed} ${plural(removed, 'image')} from ${productId}; it has ${count} now`;
}

/** "Reordered the images of prod_1". */
export function reorderedText(productId: string): string {
  return `Reordered the images of ${productId}`;
}
