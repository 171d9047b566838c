import type { Command } from 'commander';
import type { Context } from '../../cli/context.js';
import { getCommand } from './get.js';
import { listCommand } from './list.js';

/** `svc products …`: the catalog. */
export function registerProducts(program: Command, ctx: Context): void {
  const products = program.command('products').description('list and inspect the catalog');
  listCommand(products, ctx);
  getCommand(products, ctx);
}
