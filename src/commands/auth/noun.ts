import { defineNoun } from '../../cmdutil/define.js';

/** `svc auth …`: keys and where they come from. */
export const noun = defineNoun({
  path: ['auth'],
  group: 'Setup',
  rank: 1,
  description: 'log in with an API key, and see which key is in use',
});
