import { defineNoun } from '../../cmdutil/define.js';

/** `svc emulator …`: the bundled local service. */
export const noun = defineNoun({
  path: ['emulator'],
  group: 'Setup',
  rank: 8,
  description: 'run the bundled emulator of the service, for offline dry runs and tests',
});
