import { defineNoun } from '../../cmdutil/define.js';

/** `svc operations …`: asynchronous work and its per-channel results. */
export const noun = defineNoun({
  path: ['operations'],
  group: 'Listings',
  rank: 2,
  description: 'follow asynchronous operations',
});
