import type { Command } from 'commander';
import type { Context } from '../../cli/context.js';
import { getCommand } from './get.js';
import { listCommand } from './list.js';

/** `svc orders …`: orders from every channel in one shape. */
export function registerOrders(program: Command, ctx: Context): void {
  const orders = program.command('orders').description('list and inspect orders from every channel');
  listCommand(orders, ctx);
  getCommand(orders, ctx);
}
