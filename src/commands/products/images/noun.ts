import { defineNoun } from '../../../cmdutil/define.js';

/** `svc products images …`: a product's images, in display order. */
export const noun = defineNoun({
  path: ['products', 'images'],
  rank: 7,
  description: 'list, add, remove and reorder the images of a product (array order is display order)',
});
