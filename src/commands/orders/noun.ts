import { defineNoun } from '../../cmdutil/define.js';

/** `svc orders …`: orders from every channel in one shape, and their fulfillment. */
export const noun = defineNoun({
  path: ['orders'],
  group: 'Orders',
  rank: 1,
  description: 'list, inspect and fulfill orders from every channel',
});
