/** How a product's images are shown. */
import type { Image } from '../../contract/schemas/product.js';
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
