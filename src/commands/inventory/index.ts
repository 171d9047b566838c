import type { Command } from 'commander';
import type { Context } from '../../cmdutil/context.js';
import { diffCommand } from './diff.js';
import { exportCommand } from './export.js';
import { pushCommand } from './push.js';
import { setCommand } from './set.js';

/** `svc inventory …`: quantity and price by SKU. */
export function registerInventory(program: Command, ctx: Context): void {
  const inventory = program
    .command('inventory')
    .description('set quantity and price by SKU, one or a whole file');
  pushCommand(inventory, ctx);
  setCommand(inventory, ctx);
  exportCommand(inventory, ctx);
  diffCommand(inventory, ctx);
}
