import type { Command } from 'commander';
import type { Context } from '../../cmdutil/context.js';
import { fulfillCommand } from './fulfill.js';
import { getCommand } from './get.js';
import { listCommand } from './list.js';

/** `svc orders …`: orders from every channel in one shape, and their fulfillment. */
export function registerOrders(program: Command, ctx: Context): void {
  const orders = program.command('orders').description('list, inspect and fulfill orders from every channel');
  listCommand(orders, ctx);
  getCommand(orders, ctx);
  fulfillCommand(orders, ctx);
}
