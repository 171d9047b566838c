import { defineNoun } from '../../cmdutil/define.js';

/** `svc products …`: the catalog. */
export const noun = defineNoun({
  path: ['products'],
  group: 'Catalog',
  rank: 1,
  description: 'list, create, update, upsert and delete products and their images',
});
