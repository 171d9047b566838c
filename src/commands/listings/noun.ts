import { defineNoun } from '../../cmdutil/define.js';

/** `svc listings …`: products published on channel accounts. */
export const noun = defineNoun({
  path: ['listings'],
  group: 'Listings',
  rank: 1,
  description: 'publish, update, resync, delist and retry listings on channel accounts',
});
