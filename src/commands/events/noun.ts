import { defineNoun } from '../../cmdutil/define.js';

/** `svc events …`: the event log, and sending its events to a receiver of yours. */
export const noun = defineNoun({
  path: ['events'],
  group: 'Events',
  rank: 1,
  description: 'read the event log (last 30 days) and forward it to a receiver',
});
