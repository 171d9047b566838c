import type { Command } from 'commander';
import type { Context } from '../../cmdutil/context.js';
import { createCommand } from './create.js';
import { deleteCommand } from './delete.js';
import { listCommand } from './list.js';
import { updateCommand } from './update.js';
import { verifyCommand } from './verify.js';

/** `svc webhooks …`: endpoints that receive events, and checking their signatures. */
export function registerWebhooks(program: Command, ctx: Context): void {
  const webhooks = program
    .command('webhooks')
    .description('manage webhook endpoints and verify signed deliveries');
  listCommand(webhooks, ctx);
  createCommand(webhooks, ctx);
  updateCommand(webhooks, ctx);
  deleteCommand(webhooks, ctx);
  verifyCommand(webhooks, ctx);
}
