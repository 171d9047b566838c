import { defineNoun } from '../../cmdutil/define.js';

/** `svc inventory …`: quantity and price by SKU. */
export const noun = defineNoun({
  path: ['inventory'],
  group: 'Inventory',
  rank: 1,
  description: 'set quantity and price by SKU, one or a whole file',
});
