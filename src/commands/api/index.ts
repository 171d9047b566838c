import type { Command } from 'commander';
import type { Context } from '../../cmdutil/context.js';
import { requestCommand } from './request.js';

/** `svc api`: any request, authenticated and paced like every other command. */
export function registerApi(program: Command, ctx: Context): void {
  requestCommand(program, ctx);
}
