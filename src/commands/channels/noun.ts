import { defineNoun } from '../../cmdutil/define.js';

/** `svc channels …`: channel accounts and their discovery data. */
export const noun = defineNoun({
  path: ['channels'],
  group: 'Catalog',
  rank: 3,
  description: 'channel accounts, their policies, categories and attribute schemas',
});
