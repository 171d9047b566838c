import { defineNoun } from '../../cmdutil/define.js';

/** `svc files …`: images uploaded for use in products. */
export const noun = defineNoun({
  path: ['files'],
  group: 'Catalog',
  rank: 2,
  description: 'upload images that are not hosted publicly',
});
