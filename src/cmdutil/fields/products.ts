import { schemaFields } from '../fields.js';

/** The field paths of a product, for --fields. */
export const productFields = schemaFields(
  async () => (await import('../../contract/schemas/product.js')).Product,
);

/** The field paths of a product's image, for --fields. */
export const imageFields = schemaFields(
  async () => (await import('../../contract/schemas/product.js')).Image,
);
