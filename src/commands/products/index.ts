import type { Command } from 'commander';
import type { Context } from '../../cmdutil/context.js';
import { createCommand } from './create.js';
import { deleteCommand } from './delete.js';
import { getCommand } from './get.js';
import { imagesCommand } from './images.js';
import { listCommand } from './list.js';
import { updateCommand } from './update.js';
import { upsertCommand } from './upsert.js';

/** `svc products …`: the catalog. */
export function registerProducts(program: Command, ctx: Context): void {
  const products = program
    .command('products')
    .description('list, create, update, upsert and delete products and their images');
  listCommand(products, ctx);
  getCommand(products, ctx);
  createCommand(products, ctx);
  updateCommand(products, ctx);
  deleteCommand(products, ctx);
  upsertCommand(products, ctx);
  imagesCommand(products, ctx);
}
