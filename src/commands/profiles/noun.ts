import { defineNoun } from '../../cmdutil/define.js';

/** `svc profiles …`: saved profiles. */
export const noun = defineNoun({
  path: ['profiles'],
  group: 'Setup',
  rank: 2,
  description: 'list, switch and remove saved profiles',
});
