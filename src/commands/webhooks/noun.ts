import { defineNoun } from '../../cmdutil/define.js';

/** `svc webhooks …`: endpoints that receive events, and checking their signatures. */
export const noun = defineNoun({
  path: ['webhooks'],
  group: 'Events',
  rank: 2,
  description: 'manage webhook endpoints and verify signed deliveries',
});
