import type { Command } from 'commander';
import type { Context } from '../../cmdutil/context.js';
import { loginCommand } from './login.js';
import { logoutCommand } from './logout.js';
import { statusCommand } from './status.js';

/** `svc auth …`: keys and where they come from. */
export function registerAuth(program: Command, ctx: Context): void {
  const auth = program.command('auth').description('log in with an API key, and see which key is in use');
  loginCommand(auth, ctx);
  statusCommand(auth, ctx);
  logoutCommand(auth, ctx);
}
