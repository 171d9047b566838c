/** One entry point for the three generators. */

import type { CommandTree } from '../command-tree.js';
import { bashScript } from './bash.js';
import { fishScript } from './fish.js';
import type { Shell } from './shells.js';
import { zshScript } from './zsh.js';

/** The completion script `svc completion SHELL` prints. */
export function completionScript(shell: Shell, tree: CommandTree): string {
  if (shell === 'bash') return bashScript(tree);
  if (shell === 'zsh') return zshScript(tree);
  return fishScript(tree);
}
